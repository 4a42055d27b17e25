/**
 * The readiness of a Kafka event server's consumer groups, kept alike by both clients' servers: every
 * group has joined, and none is down (crashed beyond the client's own restarts, or a stream waiting to
 * be opened again). The `kafka` health check turns an unhealthy report into a failed check.
 */
export class GroupHealth {
  private readonly joinedGroups = new Set<string>();
  private readonly downGroups = new Map<string, string>();

  joined(group: string): void {
    this.joinedGroups.add(group);
  }

  /** Left the group, or rejoining it: not joined until the next join completes. */
  left(group: string): void {
    this.joinedGroups.delete(group);
  }

  down(group: string, reason: string): void {
    this.downGroups.set(group, `${group}: ${reason}`);
  }

  up(group: string): void {
    this.downGroups.delete(group);
  }

  /** Healthy once `groups` groups have joined and none is down; the detail says which or how many. */
  report(groups: number): { healthy: boolean; detail: string } {
    if (this.downGroups.size > 0) return { healthy: false, detail: [...this.downGroups.values()].join('; ') };
    return {
      healthy: this.joinedGroups.size >= groups,
      detail: `${this.joinedGroups.size}/${groups} groups joined`,
    };
  }
}
