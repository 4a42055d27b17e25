import { CompanySnapshotV1, Topics } from '@fleet/contracts';
import { Controller, Injectable } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConsumeEvents } from '../messaging/consume-events.decorator';
import { EventBatch } from '../messaging/message';
import { SnapshotMap } from '../projections/snapshots';

/**
 * Every process's own projection of the company tree, fed by the compacted company-snapshot topic.
 * Held in memory: the pipeline consults it on every request, and a process rebuilds it from the
 * topic at start (its consumer group is private to the process).
 */
@Injectable()
export class CompanyDirectory {
  private readonly companies = new SnapshotMap<number, CompanySnapshotV1>((company) => company.companyId);
  /** The tree by parent, so that a subtree is found without looking at every company. */
  private readonly children = new Map<number, Set<number>>();

  apply(snapshots: readonly CompanySnapshotV1[]): void {
    for (const { previous, current } of this.companies.apply(snapshots)) {
      if (previous?.parentId === current.parentId) continue;
      if (previous?.parentId != null) this.children.get(previous.parentId)?.delete(current.companyId);
      if (current.parentId !== null) {
        let siblings = this.children.get(current.parentId);
        if (!siblings) this.children.set(current.parentId, (siblings = new Set()));
        siblings.add(current.companyId);
      }
    }
  }

  get(companyId: number): CompanySnapshotV1 | undefined {
    return this.companies.get(companyId);
  }

  /**
   * The first company on the way to the root that is not active, if any. Unknown companies pass:
   * a token proves its company was usable when issued, and a new company's snapshot may lag.
   */
  blockingAncestor(companyId: number): CompanySnapshotV1 | undefined {
    const seen = new Set<number>();
    for (let current = this.companies.get(companyId); current; current = this.parentOf(current)) {
      if (seen.has(current.companyId)) return undefined;
      seen.add(current.companyId);
      if (current.status !== 'active') return current;
    }
    return undefined;
  }

  /** True if `target` is `root` or lies below it. */
  isWithin(root: number, target: number): boolean {
    const seen = new Set<number>();
    for (
      let current = this.companies.get(target);
      current && !seen.has(current.companyId);
      current = this.parentOf(current)
    ) {
      if (current.companyId === root) return true;
      seen.add(current.companyId);
    }
    return false;
  }

  /**
   * The companies above `companyId`, nearest first, as far as this process knows them: a parent
   * whose own snapshot has not arrived yet is the last one listed. Empty for a root or an unknown
   * company.
   */
  ancestorsOf(companyId: number): number[] {
    const ancestors: number[] = [];
    const seen = new Set([companyId]);
    for (
      let current = this.companies.get(companyId);
      current?.parentId != null && !seen.has(current.parentId);
      current = this.companies.get(current.parentId)
    ) {
      seen.add(current.parentId);
      ancestors.push(current.parentId);
    }
    return ancestors;
  }

  /** `root` and every company below it that this process knows (none when it does not know `root`). */
  subtreeOf(root: number): number[] {
    if (!this.companies.get(root)) return [];
    const found = [root];
    const seen = new Set(found);
    for (let index = 0; index < found.length; index += 1) {
      for (const child of this.children.get(found[index]) ?? []) {
        if (!seen.has(child)) {
          seen.add(child);
          found.push(child);
        }
      }
    }
    return found;
  }

  /**
   * The companies a token of `companyId` reaches: its own, even before this process's projection has
   * it (a token is proof enough of its company), and every company below it that the projection knows.
   */
  reachableFrom(companyId: number): number[] {
    const known = this.subtreeOf(companyId);
    return known.length > 0 ? known : [companyId];
  }

  private parentOf(company: CompanySnapshotV1): CompanySnapshotV1 | undefined {
    return company.parentId === null ? undefined : this.companies.get(company.parentId);
  }
}

@Controller()
export class CompanyDirectoryConsumer {
  constructor(private readonly directory: CompanyDirectory) {}

  @ConsumeEvents(Topics.companySnapshots, { group: 'company-directory', perProcess: true })
  onCompanySnapshots(@Payload() batch: EventBatch<CompanySnapshotV1>): void {
    this.directory.apply(batch.events.map((event) => event.payload));
  }
}
