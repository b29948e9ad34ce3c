import { RecentCache } from './recent-cache';

describe('RecentCache', () => {
  let now = 0;
  let loads = 0;
  const load = (value: string) => async () => {
    loads++;
    return value;
  };
  const cache = (maxAgeMs = 1000, maxEntries = 100) =>
    new RecentCache<string>({ maxAgeMs, maxEntries, now: () => now });

  beforeEach(() => {
    now = 0;
    loads = 0;
  });

  it('serves an entry until it is maxAgeMs old, then loads it again: the staleness bound', async () => {
    const c = cache(1000);
    expect(await c.get('k', load('v1'))).toBe('v1');
    now = 999;
    expect(await c.get('k', load('v2'))).toBe('v1');
    now = 1000;
    expect(await c.get('k', load('v2'))).toBe('v2');
    expect(loads).toBe(2);
  });

  it('forgets everything on invalidate', async () => {
    const c = cache();
    await c.get('a', load('a1'));
    await c.get('b', load('b1'));
    c.invalidate();
    expect(c.size).toBe(0);
    expect(await c.get('a', load('a2'))).toBe('a2');
  });

  it('does not keep what a load started before an invalidation read', async () => {
    const c = cache();
    let finish!: (value: string) => void;
    const slow = c.get('k', () => new Promise<string>((resolve) => (finish = resolve)));
    c.invalidate(); // the value changed while the load was reading the old one
    finish('old');
    expect(await slow).toBe('old');
    expect(await c.get('k', load('new'))).toBe('new');
  });

  it('does not cache what `keep` refuses (an unknown key), nor anything with maxAgeMs 0', async () => {
    const c = cache();
    await c.get('missing', load(''), (value) => value !== '');
    await c.get('missing', load(''), (value) => value !== '');
    expect(loads).toBe(2);
    const off = cache(0);
    await off.get('k', load('v'));
    await off.get('k', load('v'));
    expect(loads).toBe(4);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const c = cache(1000, 2);
    await c.get('a', load('a'));
    await c.get('b', load('b'));
    await c.get('c', load('c'));
    expect(c.size).toBe(2);
    loads = 0;
    await c.get('b', load('b'));
    await c.get('c', load('c'));
    expect(loads).toBe(0);
    await c.get('a', load('a'));
    expect(loads).toBe(1);
  });
});
