import { CompanySnapshotV1 } from '@fleet/contracts';
import { CompanyDirectory } from './company-directory';

const company = (
  companyId: number,
  parentId: number | null,
  version = 1,
  status: CompanySnapshotV1['status'] = 'active',
): CompanySnapshotV1 =>
  ({ companyId, parentId, version, status, name: `Company ${companyId}` }) as CompanySnapshotV1;

describe('CompanyDirectory', () => {
  it('finds a subtree through the parent index, in any order the snapshots arrive', () => {
    const directory = new CompanyDirectory();
    // Children before their parents, as a compacted topic may deliver them.
    directory.apply([company(4, 2), company(3, 1), company(2, 1), company(5, null), company(1, null)]);
    expect(directory.subtreeOf(1).sort()).toEqual([1, 2, 3, 4]);
    expect(directory.subtreeOf(2).sort()).toEqual([2, 4]);
    expect(directory.subtreeOf(5)).toEqual([5]);
    expect(directory.subtreeOf(99)).toEqual([]);
    // A token's company is its own to reach, known or not yet.
    expect(directory.reachableFrom(2).sort()).toEqual([2, 4]);
    expect(directory.reachableFrom(99)).toEqual([99]);
  });

  it('follows a company moved to another parent, and ignores an older snapshot of it', () => {
    const directory = new CompanyDirectory();
    directory.apply([company(1, null), company(2, null), company(3, 1)]);
    directory.apply([company(3, 2, 2)]);
    expect(directory.subtreeOf(1)).toEqual([1]);
    expect(directory.subtreeOf(2).sort()).toEqual([2, 3]);
    directory.apply([company(3, 1, 1)]);
    expect(directory.subtreeOf(2).sort()).toEqual([2, 3]);
    expect(directory.isWithin(2, 3)).toBe(true);
    expect(directory.isWithin(1, 3)).toBe(false);
  });

  it('names the first inactive company on the way to the root', () => {
    const directory = new CompanyDirectory();
    directory.apply([company(1, null, 1, 'suspended'), company(2, 1), company(3, 2)]);
    expect(directory.blockingAncestor(3)?.companyId).toBe(1);
    directory.apply([company(1, null, 2, 'active')]);
    expect(directory.blockingAncestor(3)).toBeUndefined();
  });

  it('lists the ancestors nearest first, stopping at a parent it does not know or a cycle', () => {
    const directory = new CompanyDirectory();
    directory.apply([company(1, null), company(2, 1), company(3, 2), company(7, 6)]);
    expect(directory.ancestorsOf(3)).toEqual([2, 1]);
    expect(directory.ancestorsOf(1)).toEqual([]);
    expect(directory.ancestorsOf(7)).toEqual([6]);
    expect(directory.ancestorsOf(99)).toEqual([]);
    // A cycle (snapshots of a move arriving out of order) ends the chain instead of looping.
    directory.apply([company(1, 3, 2)]);
    expect(directory.ancestorsOf(3)).toEqual([2, 1]);
  });
});
