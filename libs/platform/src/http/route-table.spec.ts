import { RouteTable } from './route-table';

describe('RouteTable', () => {
  const table = new RouteTable();
  table.add('GET', '/api/v1/platform/partners/:partnerId');
  table.add(['HEAD', 'GET'], '/api/v1/health');
  table.add('POST', '/api/v1/platform/partners');

  it('finds the methods of a concrete path', () => {
    expect(table.methodsFor('/api/v1/platform/partners/abc?x=1')).toEqual(['GET']);
    expect(table.methodsFor('/api/v1/health')).toEqual(['GET', 'HEAD']);
    expect(table.methodsFor('/api/v1/platform/partners')).toEqual(['POST']);
  });

  it('knows no methods for an unknown path or a deeper one', () => {
    expect(table.methodsFor('/api/v1/nope')).toEqual([]);
    expect(table.methodsFor('/api/v1/platform/partners/a/b')).toEqual([]);
  });
});
