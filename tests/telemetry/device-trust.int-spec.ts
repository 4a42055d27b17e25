import { Topics } from '@fleet/contracts';
import { TeltonikaDevice } from '@fleet/simulator';
import { TeltonikaPort } from '@fleet/telemetry-ingest-service';
import { collectEvents, TestVehicle, waitFor } from '@fleet/testing';
import { AvlRecord } from '@fleet/trackers';
import { avlRecord } from './avl-records';
import { TelemetryContext } from './telemetry-context';

const Results = collectEvents(Topics.commandResults);
const UNKNOWN_ALLOWANCE = 3;

/** A record `minutes` after `base`, `kmEast` km east of 52.52, 13.40. */
const record = (base: number, minutes: number, kmEast: number) => avlRecord(base, minutes * 60, kmEast);

/**
 * Issue 54 on a credential-less protocol (Teltonika over TCP, real sockets, real PostgreSQL): commands
 * go only to a session whose fixes continue the vehicle's settled track (F1), the track survives a
 * restart through its checkpoint, and the unknown-identifier throttle never refuses a known device.
 * Tracks settle at once here (INGEST_TRACK_SETTLE_SECONDS=0): what is tested is who may continue one.
 */
describe('device trust on the Teltonika port (issue 54)', () => {
  let h: TelemetryContext;
  let companyId: number;

  const open = (database?: TelemetryContext['database']) =>
    TelemetryContext.open(
      {
        INGEST_MAX_PLAUSIBLE_SPEED_KMH: '300',
        INGEST_TRACK_SETTLE_SECONDS: '0',
        INGEST_TRACK_CHECKPOINT_SECONDS: '1',
        INGEST_TELTONIKA_UNKNOWN_DEVICES_PER_MINUTE: String(UNKNOWN_ALLOWANCE),
      },
      { modules: [Results.module], database },
    );

  beforeAll(async () => {
    h = await open();
    companyId = await h.newCompany({ name: 'Trusted Fleet' });
  });

  afterAll(async () => {
    await h?.close();
  });

  const connect = (vehicle: Pick<TestVehicle, 'imei'>) =>
    TeltonikaDevice.connect({
      host: '127.0.0.1',
      port: h.app.get(TeltonikaPort).port!,
      imei: vehicle.imei,
      onCommand: () => 'DOUT1:1',
    });

  const statusesOf = async (commandId: string) =>
    (await h.commandResults(Results.collector, commandId)).map((result) => result.status);

  /** Sends each record as its own packet, waiting for each acknowledgement (and so for its handling). */
  const sendEach = async (device: TeltonikaDevice, records: AvlRecord[]) => {
    for (const one of records) expect(await device.send([one])).toBe(1);
  };

  it('holds commands for a session that has not continued a settled track, and sends them once it does', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const base = Date.now() - 3_600_000;
    const { device } = await connect(vehicle);
    // The vehicle's first fix ever: a fresh track, which proves nothing.
    await sendEach(device, [record(base, 0, 0)]);
    const lock = await h.requestCommand(vehicle.id, companyId, { type: 'doorLock', lock: true });
    await sendEach(device, [record(base, 1, 0.5)]);
    // That fix settled the track (settling time 0); the command was held until then, then the next
    // fix, which continues the settled track, proves the session.
    await sendEach(device, [record(base, 2, 1)]);
    await waitFor(async () => (await statusesOf(lock.commandId)).includes('acknowledged'), {
      description: 'the door lock acknowledged',
    });
    expect(await statusesOf(lock.commandId)).toEqual(['held', 'sent', 'acknowledged']);
    expect((await h.commandResults(Results.collector, lock.commandId))[0]).toMatchObject({
      reason: 'waiting for an authenticated device',
    });
    expect(device.commands).toEqual(['setdigout ?1']);
    device.close();
  });

  it("the audit's case: a session that re-anchors the track 880 km away is never sent the vehicle's commands", async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const base = Date.now() - 3_600_000;
    const real = await connect(vehicle);
    await sendEach(real.device, [record(base, 0, 0), record(base, 1, 0.5), record(base, 2, 1)]);
    real.device.close();
    await real.device.closed();

    const immobilise = await h.requestCommand(vehicle.id, companyId, { type: 'ignition', on: false });
    const attacker = await connect(vehicle);
    // Three consistent fixes from far away re-anchor the track (the first two are refused as glitches),
    // then the attacker carries on from there.
    await sendEach(
      attacker.device,
      [10, 11, 12, 13, 14, 15].map((minute) => record(base, minute, 880 + minute)),
    );
    // Each packet's handling (and so its trust decision) ended before the next was acknowledged.
    expect(await statusesOf(immobilise.commandId)).toEqual(['held']);
    expect(attacker.device.commands).toEqual([]);
    const { rows } = await h.database.pool.query(
      'SELECT handed_at FROM ingest.device_commands WHERE command_id = $1',
      [immobilise.commandId],
    );
    expect(rows).toEqual([{ handed_at: null }]);
    attacker.device.close();
  });

  it('never refuses a known device behind an address that named too many unknown ones (carrier NAT)', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    for (let guess = 0; guess < UNKNOWN_ALLOWANCE; guess += 1) {
      const { device, accepted } = await connect({ imei: `35999999100000${guess}` });
      expect(accepted).toBe(false);
      device.close();
    }
    // Past the allowance an unknown IMEI gets no answer at all…
    await expect(connect({ imei: '359999991000099' })).rejects.toThrow(/closed/);
    // …while a registered device from the same address logs in and is stored.
    const { device, accepted } = await connect(vehicle);
    expect(accepted).toBe(true);
    await sendEach(device, [record(Date.now() - 60_000, 0, 0)]);
    await h.storedPositions(vehicle.id, 1);
    device.close();
  });

  describe('across a restart of telemetry-ingest', () => {
    it('finds the vehicle’s settled track in its checkpoint: the device’s first fix after the restart proves it', async () => {
      const vehicle = await h.newVehicle({ companyIds: [companyId] });
      const base = Date.now() - 3_600_000;
      const before = await connect(vehicle);
      await sendEach(before.device, [record(base, 0, 0), record(base, 1, 0.5)]);
      before.device.close();
      await waitFor(
        async () =>
          (
            await h.database.pool.query(
              'SELECT 1 FROM ingest.vehicle_tracks WHERE vehicle_id = $1 AND unsettled_since IS NULL',
              [vehicle.id],
            )
          ).rowCount === 1,
        { description: 'the settled track checkpointed' },
      );

      const database = await h.stop();
      h = await open(database);
      const unlock = await h.requestCommand(vehicle.id, companyId, { type: 'doorLock', lock: false });
      const after = await connect(vehicle);
      await sendEach(after.device, [record(base, 2, 1)]);
      await waitFor(async () => (await statusesOf(unlock.commandId)).includes('sent'), {
        description: 'the command sent after the restart',
      });
      expect((await statusesOf(unlock.commandId))[0]).toBe('sent');
      after.device.close();
    });
  });
});
