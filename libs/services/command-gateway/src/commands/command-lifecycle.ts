import { CommandResultV1, commandStatuses, CommandStatus } from '@fleet/contracts';

/**
 * The command lifecycle (docs/commands.md, Lifecycle) as data: the status a command is accepted in,
 * and for each event that moves it on, the statuses it may come from and the one it enters. The
 * queries (commands.queries.ts) take their `status = ANY(...)` conditions from here; a command in a
 * status the event does not list is left as it is.
 */

/** What moves a command on: a result reported for it (`commands.results.v1`), its expiry, a newer command. */
export type CommandEvent = CommandResultV1['status'] | 'expired' | 'superseded';

/** The status of a command just accepted (and announced on `commands.requested.v1`). */
export const acceptedStatus: CommandStatus = 'queued';

/** The statuses a command leaves only by a result, its expiry or a newer command of its type. */
const WAITING: readonly CommandStatus[] = ['queued', 'sent'];

/** For each event, from which statuses it is taken and which status it enters. */
export const commandLifecycle: Readonly<
  Record<CommandEvent, { readonly from: readonly CommandStatus[]; readonly to: CommandStatus }>
> = {
  // telemetry-ingest handed it to the device; again while `sent` (a re-send): the status stays.
  sent: { from: WAITING, to: 'sent' },
  // telemetry-ingest keeps it back until a device proves it is the vehicle's: it stays queued, with a reason.
  held: { from: ['queued'], to: 'queued' },
  // The device answered (or query-api applied an odometer or name command, or could not).
  acknowledged: { from: WAITING, to: 'acknowledged' },
  failed: { from: WAITING, to: 'failed' },
  // No answer by `expires_at`.
  expired: { from: WAITING, to: 'expired' },
  // A newer command of its type for its vehicle came before the device was handed this one.
  superseded: { from: ['queued'], to: 'superseded' },
};

export const commandEvents = Object.keys(commandLifecycle) as readonly CommandEvent[];

/** The statuses `event` is taken from. */
export const statusesFrom = (event: CommandEvent): readonly CommandStatus[] => commandLifecycle[event].from;

/** The status `event` moves a command in `status` to; undefined when it does not apply to that status. */
export function nextStatus(status: CommandStatus, event: CommandEvent): CommandStatus | undefined {
  const { from, to } = commandLifecycle[event];
  return from.includes(status) ? to : undefined;
}

/**
 * The statuses from which `event` enters another status: a transition, counted and announced. (From
 * `sent`, a `sent` result is a re-send, not a transition.)
 */
export const statusesChangedBy = (event: CommandEvent): readonly CommandStatus[] =>
  statusesFrom(event).filter((status) => nextStatus(status, event) !== status);

/** The statuses some event leaves (in `commandStatuses` order): a command in one is still waiting. */
export const openStatuses: readonly CommandStatus[] = commandStatuses.filter((status) =>
  commandEvents.some((event) => nextStatus(status, event) !== undefined),
);

/** Whether a command in `status` may still move on; the other statuses are final. */
export const isOpen = (status: CommandStatus): boolean => openStatuses.includes(status);
