import { CommandStatus, DeviceCommand } from './device-commands';
import { Gt06Device } from './gt06-device';
import { osmandHttpSender, OsmAndSender, SenderOptions, SendOutcome } from './osmand-sender';
import { SimulatedReport } from './simulated-report';
import { TeltonikaDevice } from './teltonika-device';
import {
  gt06AnswerOf,
  gt06CommandOf,
  gt06FixOf,
  teltonikaAnswerOf,
  teltonikaCommandOf,
  teltonikaRecordOf,
} from './tracker-frames';

/** How a simulated vehicle's tracker talks to the platform. */
export type TrackerProtocol = 'osmand' | 'teltonika' | 'gt06';
export const trackerProtocols: readonly TrackerProtocol[] = ['osmand', 'teltonika', 'gt06'];

export interface TrackerEndpoints {
  /** The OsmAnd port's URL. */
  osmand: string;
  /** The Teltonika and GT06 ports (host:port), when vehicles use them. */
  teltonika?: { host: string; port: number };
  gt06?: { host: string; port: number };
}

/** Carries out a command a tracker received on its connection; the vehicle's outcome. */
export type CommandHandler = (imei: string, command: DeviceCommand) => CommandStatus;

/** A sender for a fleet whose trackers speak different protocols, and take commands on their connection. */
export interface TrackerSender extends OsmAndSender {
  /** Called with every command a Teltonika or GT06 tracker receives (OsmAnd's come in answers). */
  onCommand(handler: CommandHandler): void;
}

type Device = { kind: 'teltonika'; device: TeltonikaDevice } | { kind: 'gt06'; device: Gt06Device };

/**
 * Sends each report in its vehicle's protocol: OsmAnd over HTTP, or over the tracker's own TCP
 * connection (opened at its first report and again after it broke), as a Teltonika Codec 8 Extended
 * packet (resolved once acknowledged) or a GT06 location (which the protocol does not answer: resolved
 * once written). Commands arriving on a connection are carried out at once by the handler and answered
 * as the device would (docs/simulator.md).
 */
export function trackerSender(
  endpoints: TrackerEndpoints,
  protocolOf: (imei: string) => TrackerProtocol,
  options: SenderOptions = {},
): TrackerSender {
  const osmand = osmandHttpSender(endpoints.osmand, options);
  const devices = new Map<string, Promise<Device>>();
  const lastReports = new Map<string, SimulatedReport>();
  let handler: CommandHandler | undefined;
  let commandIds = 0;

  const carryOut = (imei: string, command: DeviceCommand): CommandStatus =>
    handler?.(imei, command) ?? 'failed';

  const open = (imei: string, protocol: 'teltonika' | 'gt06'): Promise<Device> => {
    const endpoint = endpoints[protocol];
    if (!endpoint) return Promise.reject(new Error(`no ${protocol} port given`));
    const common = { host: endpoint.host, port: endpoint.port, imei, timeoutMs: options.timeoutMs };
    if (protocol === 'teltonika') {
      return TeltonikaDevice.connect({
        ...common,
        onCommand: (text) => {
          const command = teltonikaCommandOf(`teltonika-${++commandIds}`, text);
          carryOut(imei, command);
          return teltonikaAnswerOf(command, lastReports.get(imei));
        },
      }).then(({ device, accepted }) => {
        if (!accepted) throw new RefusedLogin(imei);
        return { kind: 'teltonika', device };
      });
    }
    return Gt06Device.connect({
      ...common,
      onCommand: (text) => {
        const command = gt06CommandOf(`gt06-${++commandIds}`, text);
        carryOut(imei, command);
        return gt06AnswerOf(command, lastReports.get(imei));
      },
    }).then((device) => ({ kind: 'gt06', device }));
  };

  const connection = (imei: string, protocol: 'teltonika' | 'gt06'): Promise<Device> => {
    let device = devices.get(imei);
    if (!device) {
      device = open(imei, protocol);
      devices.set(imei, device);
    }
    return device;
  };

  const sendOverConnection = async (
    report: SimulatedReport,
    protocol: 'teltonika' | 'gt06',
  ): Promise<SendOutcome> => {
    try {
      const link = await connection(report.imei, protocol);
      if (link.kind === 'teltonika') {
        await link.device.send([teltonikaRecordOf(report)]);
      } else {
        const { fix, extra } = gt06FixOf(report);
        link.device.sendGps(fix, extra);
      }
      lastReports.set(report.imei, report);
      return { status: 200, body: '' };
    } catch (error) {
      // The next report opens a new connection.
      const link = devices.get(report.imei);
      devices.delete(report.imei);
      void link?.then((broken) => broken.device.close()).catch(() => undefined);
      if (error instanceof RefusedLogin) return { status: 403, body: error.message };
      return { status: 0, body: (error as Error).message };
    }
  };

  return {
    send: (report) => {
      const protocol = protocolOf(report.imei);
      return protocol === 'osmand' ? osmand.send(report) : sendOverConnection(report, protocol);
    },
    onCommand: (next) => {
      handler = next;
    },
    close: () => {
      osmand.close();
      for (const device of devices.values())
        void device.then((link) => link.device.close()).catch(() => undefined);
      devices.clear();
    },
  };
}

class RefusedLogin extends Error {
  constructor(imei: string) {
    super(`the platform refused the login of ${imei} (unknown device)`);
  }
}
