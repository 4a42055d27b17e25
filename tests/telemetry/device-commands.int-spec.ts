import { randomUUID } from 'node:crypto';
import { CommandRequestedV1, CommandResultV1, Topics } from '@fleet/contracts';
import { EventPublisher } from '@fleet/platform';
import { InProcessBroker, InProcessEventPublisher, PostgresBrokerStore } from '@fleet/platform-transport';
import { collectEvents, TestVehicle, waitFor } from '@fleet/testing';
import { DeviceSettingsStore } from '@fleet/telemetry-ingest-service';
import { TelemetryContext } from './telemetry-context';

/** Seconds before an unacknowledged command is handed out again, in this file. */
const RESEND_SECONDS = 2;
const Results = collectEvents(Topics.commandResults);

interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}

/**
 * Device commands on the tracker port (issue 19): commands from `commands.requested.v1` handed out in
 * the answers to the device's reports, re-handed until acknowledged, acknowledged with `cmdid` and
 * `cmdstatus`, and their results on `commands.results.v1`, as command-gateway reads them.
 */
describe('device commands on the OsmAnd port (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let companyId: number;

  const open = (database?: TelemetryContext['database'], resendSeconds = RESEND_SECONDS) =>
    TelemetryContext.open(
      { COMMAND_RESEND_SECONDS: String(resendSeconds) },
      { modules: [Results.module], database },
    );

  beforeAll(async () => {
    h = await open();
    companyId = await h.newCompany({ name: 'Commanded Fleet' });
  });

  afterAll(async () => {
    await h?.close();
  });

  /** Each vehicle's device secret: commands go only to devices that prove who they are (docs/security.md, F1). */
  const secrets = new Map<number, string>();
  const newVehicle = async (): Promise<TestVehicle> => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const { secret } = await h.app.get(DeviceSettingsStore).write(vehicle.id, { secret: 'new' });
    secrets.set(vehicle.id, secret!);
    return vehicle;
  };

  /** A command as command-gateway publishes it; requested now and valid for five minutes by default. */
  const command = (
    vehicle: TestVehicle,
    fields: Partial<CommandRequestedV1> & Pick<CommandRequestedV1, 'type'>,
  ): CommandRequestedV1 => ({
    commandId: randomUUID(),
    vehicleId: vehicle.id,
    companyId,
    requestedAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 300_000).toISOString(),
    ...fields,
  });

  /** Publishes the commands on `commands.requested.v1` and waits until ingest has stored them. */
  const request = async (...commands: CommandRequestedV1[]): Promise<void> => {
    await h.app.get(EventPublisher).publish(
      Topics.commandsRequested,
      commands.map((payload) => ({ key: String(payload.vehicleId), payload })),
    );
    await h.transportIdle();
  };

  /** One OsmAnd GET report of the vehicle, with more fields if given. */
  const report = async (
    vehicle: TestVehicle,
    fields: Record<string, string | number | boolean> = {},
  ): Promise<Answer> => {
    const query = new URLSearchParams({ id: vehicle.imei, lat: '52.5', lon: '13.4' });
    query.set('secret', secrets.get(vehicle.id)!);
    for (const [name, value] of Object.entries(fields)) query.set(name, String(value));
    const response = await fetch(`${h.deviceUrl}/?${query}`);
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: await response.text(),
    };
  };

  const commandsOf = (answer: Answer): unknown[] => {
    expect([answer.status, answer.contentType]).toEqual([200, 'application/json']);
    return (JSON.parse(answer.body) as { commands: unknown[] }).commands;
  };

  const nothingPending = (answer: Answer) => {
    expect([answer.status, answer.body]).toEqual([200, '']);
    expect(answer.contentType ?? '').not.toMatch(/json/);
  };

  /** Results published so far (once the transport is idle) for these commands, in publication order. */
  const resultsOf = async (...commandIds: string[]): Promise<CommandResultV1[]> => {
    await h.transportIdle();
    return h.app.get(Results.collector).events.filter((result) => commandIds.includes(result.commandId));
  };

  const sent = (commandId: string, vehicleId: number) => ({
    commandId,
    vehicleId,
    status: 'sent',
    at: expect.any(String),
  });

  /** Makes the table see the command's last hand-out `seconds` earlier, as if that time had passed. */
  const age = async (commandId: string, seconds: number) => {
    await h.database.pool.query(
      `UPDATE ingest.device_commands SET handed_at = handed_at - make_interval(secs => $2) WHERE command_id = $1`,
      [commandId, seconds],
    );
  };

  it('hands a pending command out in the 200 answer as JSON with only its fields, and publishes sent', async () => {
    const vehicle = await newVehicle();
    const lock = command(vehicle, { type: 'doorLock', lock: true });
    await request(lock);
    const answer = await report(vehicle, { lock: false });
    expect(commandsOf(answer)).toEqual([{ id: lock.commandId, type: 'doorLock', lock: true }]);
    expect(await resultsOf(lock.commandId)).toEqual([sent(lock.commandId, vehicle.id)]);
    // The report itself was accepted as any other.
    await h.storedPositions(vehicle.id, 1);
  });

  it('answers exactly as before when nothing is pending for the vehicle', async () => {
    const [quiet, other] = [await newVehicle(), await newVehicle()];
    const theirs = command(other, { type: 'locate' });
    await request(theirs);
    nothingPending(await report(quiet));
    await h.storedPositions(quiet.id, 1);
    // The other vehicle's command stays its own.
    expect(commandsOf(await report(other))).toEqual([{ id: theirs.commandId, type: 'locate' }]);
  });

  it('hands out every pending type in request order, a locate command with its id and type only', async () => {
    const vehicle = await newVehicle();
    const requestedAt = Date.now();
    const at = (offset: number) => new Date(requestedAt + offset).toISOString();
    const immobilise = command(vehicle, { type: 'ignition', on: false, requestedAt: at(0) });
    const locate = command(vehicle, { type: 'locate', requestedAt: at(1) });
    const unlock = command(vehicle, { type: 'doorLock', lock: false, requestedAt: at(2) });
    await request(immobilise, locate, unlock);
    expect(commandsOf(await report(vehicle))).toEqual([
      { id: immobilise.commandId, type: 'ignition', on: false },
      { id: locate.commandId, type: 'locate' },
      { id: unlock.commandId, type: 'doorLock', lock: false },
    ]);
  });

  it('hands an unacknowledged command out again after COMMAND_RESEND_SECONDS with the same id, not before', async () => {
    const vehicle = await newVehicle();
    const release = command(vehicle, { type: 'ignition', on: true });
    await request(release);
    const wire = { id: release.commandId, type: 'ignition', on: true };
    expect(commandsOf(await report(vehicle))).toEqual([wire]);
    // A report right after gets nothing: the command is with the device.
    nothingPending(await report(vehicle));
    const again = await waitFor(
      async () => {
        const answer = await report(vehicle);
        return answer.body === '' ? undefined : answer;
      },
      { intervalMs: 200, description: 'the command handed out again' },
    );
    expect(commandsOf(again)).toEqual([wire]);
    const results = await resultsOf(release.commandId);
    expect(results).toEqual([sent(release.commandId, vehicle.id), sent(release.commandId, vehicle.id)]);
    const [first, second] = results.map((result) => Date.parse(result.at));
    expect(second - first).toBeGreaterThanOrEqual(RESEND_SECONDS * 1000);
    const { rows } = await h.database.pool.query(
      'SELECT hand_count FROM ingest.device_commands WHERE command_id = $1',
      [release.commandId],
    );
    expect(rows).toEqual([{ hand_count: 2 }]);
  });

  it('publishes acknowledged for cmdstatus=ok and never hands the command out again', async () => {
    const vehicle = await newVehicle();
    const lock = command(vehicle, { type: 'doorLock', lock: true });
    // Of another type, not acknowledged: the control that hand-outs go on.
    const locate = command(vehicle, { type: 'locate' });
    await request(lock, locate);
    expect(commandsOf(await report(vehicle))).toHaveLength(2);
    nothingPending(await report(vehicle, { cmdid: lock.commandId, cmdstatus: 'ok', lock: true }));
    expect(await resultsOf(lock.commandId)).toEqual([
      sent(lock.commandId, vehicle.id),
      { commandId: lock.commandId, vehicleId: vehicle.id, status: 'acknowledged', at: expect.any(String) },
    ]);
    // Both handed out an hour ago: only the unacknowledged one is due again.
    await age(lock.commandId, 3600);
    await age(locate.commandId, 3600);
    const again = await waitFor(
      async () => {
        const answer = await report(vehicle);
        return answer.body === '' ? undefined : answer;
      },
      { intervalMs: 100, description: 'the locate command handed out again' },
    );
    expect(commandsOf(again)).toEqual([{ id: locate.commandId, type: 'locate' }]);
    // An acknowledgement repeated (the device did not see the 200) publishes nothing more.
    nothingPending(await report(vehicle, { cmdid: lock.commandId, cmdstatus: 'ok' }));
    expect((await resultsOf(lock.commandId)).map((result) => result.status)).toEqual([
      'sent',
      'acknowledged',
    ]);
  });

  it('publishes failed, with the reason, for cmdstatus=failed (JSON variant too)', async () => {
    const vehicle = await newVehicle();
    const immobilise = command(vehicle, { type: 'ignition', on: false });
    await request(immobilise);
    commandsOf(await report(vehicle));
    const answer = await fetch(`${h.deviceUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: vehicle.imei,
        secret: secrets.get(vehicle.id),
        location: {
          coords: { latitude: 52.5, longitude: 13.4 },
          extras: { cmdid: immobilise.commandId.toUpperCase(), cmdstatus: 'failed', engine: true },
        },
      }),
    });
    expect([answer.status, await answer.text()]).toEqual([200, '']);
    expect(await resultsOf(immobilise.commandId)).toEqual([
      sent(immobilise.commandId, vehicle.id),
      {
        commandId: immobilise.commandId,
        vehicleId: vehicle.id,
        status: 'failed',
        at: expect.any(String),
        reason: 'the device reported failure',
      },
    ]);
  });

  it("publishes nothing for another vehicle's command id or an unknown one, and accepts the report", async () => {
    const [owner, stranger] = [await newVehicle(), await newVehicle()];
    const lock = command(owner, { type: 'doorLock', lock: true });
    await request(lock);
    commandsOf(await report(owner));
    nothingPending(await report(stranger, { cmdid: lock.commandId, cmdstatus: 'ok' }));
    const unknown = randomUUID();
    nothingPending(await report(stranger, { cmdid: unknown, cmdstatus: 'failed' }));
    await h.storedPositions(stranger.id, 1);
    expect(await resultsOf(lock.commandId, unknown)).toEqual([sent(lock.commandId, owner.id)]);
    // Still pending for its own vehicle, which can acknowledge it.
    nothingPending(await report(owner, { cmdid: lock.commandId, cmdstatus: 'ok' }));
    expect((await resultsOf(lock.commandId)).map((result) => result.status)).toEqual([
      'sent',
      'acknowledged',
    ]);
  });

  it('refuses a malformed cmdid or cmdstatus, or one without the other, with a 400 naming the field', async () => {
    const vehicle = await newVehicle();
    const id = randomUUID();
    const refused = [
      await report(vehicle, { cmdid: 'not-a-uuid', cmdstatus: 'ok' }),
      await report(vehicle, { cmdid: id, cmdstatus: 'done' }),
      await report(vehicle, { cmdid: id }),
      await report(vehicle, { cmdstatus: 'ok' }),
    ];
    expect(refused.map((answer) => [answer.status, answer.body.split(':')[0]])).toEqual([
      [400, 'cmdid'],
      [400, 'cmdstatus'],
      [400, 'cmdstatus'],
      [400, 'cmdid'],
    ]);
    await h.transportIdle();
    const { rows } = await h.database.pool.query(
      'SELECT count(*)::int AS n FROM query.positions WHERE vehicle_id = $1',
      [vehicle.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('never hands out an expired command, nor takes its acknowledgement', async () => {
    const vehicle = await newVehicle();
    const past = new Date(Date.now() - 1_000).toISOString();
    const arrivedExpired = command(vehicle, { type: 'locate', expiresAt: past });
    const expiring = command(vehicle, { type: 'doorLock', lock: true });
    const control = command(vehicle, { type: 'ignition', on: false });
    await request(arrivedExpired, expiring, control);
    // Expired while waiting (as if its five minutes had passed).
    await h.database.pool.query(
      `UPDATE ingest.device_commands SET expires_at = now() - interval '1 second' WHERE command_id = $1`,
      [expiring.commandId],
    );
    expect(commandsOf(await report(vehicle))).toEqual([
      { id: control.commandId, type: 'ignition', on: false },
    ]);
    nothingPending(await report(vehicle, { cmdid: expiring.commandId, cmdstatus: 'ok' }));
    expect(await resultsOf(arrivedExpired.commandId, expiring.commandId)).toEqual([]);
    const { rows } = await h.database.pool.query(
      'SELECT command_id FROM ingest.device_commands WHERE command_id = $1',
      [arrivedExpired.commandId],
    );
    expect(rows).toEqual([]);
  });

  it('replaces a pending command by a newer one of the same type, whatever order they arrive in', async () => {
    const vehicle = await newVehicle();
    const now = Date.now();
    const older = command(vehicle, {
      type: 'doorLock',
      lock: true,
      requestedAt: new Date(now).toISOString(),
    });
    const newer = command(vehicle, {
      type: 'doorLock',
      lock: false,
      requestedAt: new Date(now + 1_000).toISOString(),
    });
    await request(older);
    await request(newer);
    // A redelivery of the older one, and one older still arriving late, change nothing.
    const oldest = command(vehicle, {
      type: 'doorLock',
      lock: true,
      requestedAt: new Date(now - 1_000).toISOString(),
    });
    await request(older, oldest);
    expect(commandsOf(await report(vehicle))).toEqual([
      { id: newer.commandId, type: 'doorLock', lock: false },
    ]);
    const { rows } = await h.database.pool.query(
      'SELECT command_id FROM ingest.device_commands WHERE vehicle_id = $1',
      [vehicle.id],
    );
    expect(rows).toEqual([{ command_id: newer.commandId }]);
  });

  it('keeps an older command already handed out beside a newer one: both answered, oldest first', async () => {
    const vehicle = await newVehicle();
    const now = Date.now();
    const lock = command(vehicle, { type: 'doorLock', lock: true, requestedAt: new Date(now).toISOString() });
    const unlock = command(vehicle, {
      type: 'doorLock',
      lock: false,
      requestedAt: new Date(now + 1_000).toISOString(),
    });
    await request(lock);
    expect(commandsOf(await report(vehicle))).toEqual([{ id: lock.commandId, type: 'doorLock', lock: true }]);
    await request(unlock);
    // The lock was handed out a moment ago: only the unlock is due now.
    expect(commandsOf(await report(vehicle))).toEqual([
      { id: unlock.commandId, type: 'doorLock', lock: false },
    ]);
    // Unanswered, both come again, the older first; the device's answer to the lock still counts.
    await age(lock.commandId, RESEND_SECONDS + 1);
    await age(unlock.commandId, RESEND_SECONDS + 1);
    // Due again once the process's view of due vehicles is next read from the table (every 250 ms).
    const again = await waitFor(
      async () => {
        const answer = await report(vehicle);
        return answer.body !== '' && answer;
      },
      { timeoutMs: 5_000, description: 'both commands due again' },
    );
    expect(commandsOf(again)).toEqual([
      { id: lock.commandId, type: 'doorLock', lock: true },
      { id: unlock.commandId, type: 'doorLock', lock: false },
    ]);
    nothingPending(await report(vehicle, { cmdid: lock.commandId, cmdstatus: 'ok' }));
    expect((await resultsOf(lock.commandId)).map((result) => result.status)).toEqual([
      'sent',
      'sent',
      'acknowledged',
    ]);
  });

  it('stores a redelivered command once, and not again once acknowledged', async () => {
    const vehicle = await newVehicle();
    const locate = command(vehicle, { type: 'locate' });
    await request(locate, locate);
    expect(commandsOf(await report(vehicle))).toEqual([{ id: locate.commandId, type: 'locate' }]);
    nothingPending(await report(vehicle, { cmdid: locate.commandId, cmdstatus: 'ok' }));
    await request(locate);
    await age(locate.commandId, 3600);
    // The control makes the next report run a hand-out, which would take the locate command along
    // (handed out an hour ago) were it pending again.
    const control = command(vehicle, { type: 'doorLock', lock: true });
    await request(control);
    expect(commandsOf(await report(vehicle))).toEqual([
      { id: control.commandId, type: 'doorLock', lock: true },
    ]);
  });

  describe('across a restart of telemetry-ingest', () => {
    it('keeps pending and handed-out commands, and stores what was requested while it was down', async () => {
      const vehicle = await newVehicle();
      const handedBefore = command(vehicle, { type: 'doorLock', lock: true });
      const pendingBefore = command(vehicle, { type: 'ignition', on: false });
      await request(handedBefore);
      commandsOf(await report(vehicle));
      await request(pendingBefore);

      const database = await h.stop();
      // command-gateway publishes while ingest is down: the broker log (here: the in-process broker's,
      // in the same database) keeps it for ingest's consumer group.
      const whileDown = command(vehicle, { type: 'locate' });
      const broker = await InProcessBroker.open(await PostgresBrokerStore.connect(database.url));
      broker.createTopic(Topics.commandsRequested.name, Topics.commandsRequested.partitions);
      await new InProcessEventPublisher(broker).publish(Topics.commandsRequested, [
        { key: String(vehicle.id), payload: whileDown },
      ]);
      await broker.close();

      // Restarted with an hour between hand-outs, so that the handed-out command is not due again
      // however long the restart took (the resend itself is the test above).
      h = await open(database, 3_600);
      await h.transportIdle();
      // The handed-out command is not due yet; the other two are, in request order.
      expect(commandsOf(await report(vehicle))).toEqual([
        { id: pendingBefore.commandId, type: 'ignition', on: false },
        { id: whileDown.commandId, type: 'locate' },
      ]);
      nothingPending(await report(vehicle, { cmdid: handedBefore.commandId, cmdstatus: 'ok' }));
      expect((await resultsOf(handedBefore.commandId)).map((result) => result.status)).toEqual([
        'acknowledged',
      ]);
    });
  });
});
