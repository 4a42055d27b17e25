import { GroupHealth } from './group-health';

describe('GroupHealth', () => {
  it('is healthy only once every group has joined', () => {
    const health = new GroupHealth();
    expect(health.report(2)).toEqual({ healthy: false, detail: '0/2 groups joined' });
    health.joined('a');
    expect(health.report(2)).toEqual({ healthy: false, detail: '1/2 groups joined' });
    health.joined('b');
    expect(health.report(2)).toEqual({ healthy: true, detail: '2/2 groups joined' });
  });

  it('counts a group that left (or is rejoining) as not joined until it joins again', () => {
    const health = new GroupHealth();
    health.joined('a');
    health.left('a');
    expect(health.report(1)).toEqual({ healthy: false, detail: '0/1 groups joined' });
    health.joined('a');
    expect(health.report(1).healthy).toBe(true);
  });

  it('is unhealthy while a group is down, naming each one and why, until it is up again', () => {
    const health = new GroupHealth();
    health.joined('a');
    health.joined('b');
    health.down('a', 'commit failed');
    health.down('b', 'broker gone');
    expect(health.report(2)).toEqual({ healthy: false, detail: 'a: commit failed; b: broker gone' });
    health.up('a');
    health.up('b');
    expect(health.report(2)).toEqual({ healthy: true, detail: '2/2 groups joined' });
  });
});
