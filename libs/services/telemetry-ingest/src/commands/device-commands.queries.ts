/**
 * SQL of the device commands (`ingest.device_commands`). UPDATE and DELETE ... RETURNING are wrapped
 * in a CTE: TypeORM's query() answers them as [rows, count] otherwise.
 */

/**
 * Stores one requested command ($1 id, $2 vehicle, $3 type, $4 lock, $5 on, $6 requested at, $7
 * expires at) unless it expired, was stored before (a redelivery), or a later command of its type
 * for its vehicle is stored (a redelivery of an older one); stored, it replaces the earlier ones of
 * its type that were never handed out (command-gateway marks those `superseded`). One already handed
 * out stays until acknowledged or expired: the device may have carried it out, and its answer counts. Ties of `requested_at` go by id, so that of two commands exactly one wins.
 */
export const STORE_COMMAND = `
  WITH fresh AS (
    INSERT INTO ingest.device_commands
      (command_id, vehicle_id, type, door_lock, ignition_on, requested_at, expires_at)
    SELECT $1::uuid, $2::integer, $3::text, $4::boolean, $5::boolean, $6::timestamptz, $7::timestamptz
    WHERE $7::timestamptz > now()
      AND NOT EXISTS (
        SELECT 1 FROM ingest.device_commands later
        WHERE later.vehicle_id = $2::integer AND later.type = $3::text
          AND (later.requested_at, later.command_id) > ($6::timestamptz, $1::uuid))
    ON CONFLICT (command_id) DO NOTHING
    RETURNING command_id
  ), replaced AS (
    DELETE FROM ingest.device_commands earlier USING fresh
    WHERE earlier.vehicle_id = $2::integer AND earlier.type = $3::text
      AND (earlier.requested_at, earlier.command_id) < ($6::timestamptz, $1::uuid)
      AND earlier.handed_at IS NULL
    RETURNING earlier.command_id
  )
  SELECT (SELECT count(*) FROM fresh)::integer AS stored`;

/**
 * Hands out the vehicle's ($1) commands that are due: never handed out, or handed out more than $2
 * seconds ago and not acknowledged. The row locks make it atomic across replicas: of two reports
 * racing, the second finds the rows just handed out and takes nothing.
 */
export const HAND_OUT = `
  WITH handed AS (
    UPDATE ingest.device_commands
    SET handed_at = now(), hand_count = hand_count + 1
    WHERE vehicle_id = $1 AND acknowledged_at IS NULL AND expires_at > now()
      AND (handed_at IS NULL OR handed_at < now() - make_interval(secs => $2))
    RETURNING command_id, type, door_lock, ignition_on, requested_at, handed_at
  )
  SELECT command_id, type, door_lock, ignition_on, handed_at FROM handed ORDER BY requested_at, command_id`;

/** Marks a pending, unexpired command ($1) of the vehicle ($2) acknowledged; answers it if it was. */
export const ACKNOWLEDGE = `
  WITH done AS (
    UPDATE ingest.device_commands SET acknowledged_at = now()
    WHERE command_id = $1 AND vehicle_id = $2 AND acknowledged_at IS NULL AND expires_at > now()
    RETURNING command_id
  )
  SELECT command_id FROM done`;

/** The vehicles with a command due now ($1: the re-send interval in seconds), as HAND_OUT sees it. */
export const DUE_VEHICLES = `
  SELECT DISTINCT vehicle_id FROM ingest.device_commands
  WHERE acknowledged_at IS NULL AND expires_at > now()
    AND (handed_at IS NULL OR handed_at < now() - make_interval(secs => $1))`;

export const PRUNE_EXPIRED = `DELETE FROM ingest.device_commands WHERE expires_at <= now()`;

/** The channel on which replicas announce vehicles with newly stored commands. */
export const DUE_CHANNEL = 'ingest_device_commands';

/** Announces the vehicles ($1: comma-separated ids) on DUE_CHANNEL; sent when the transaction commits. */
export const NOTIFY_DUE = `SELECT pg_notify('${DUE_CHANNEL}', $1::text)`;
