import { deliveryAddressError } from './delivery-address';
import { validateEndpointUrl } from './url-rules';

describe('addresses a delivery may connect to (checked at every attempt)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '::ffff:127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '::',
    'fd00:ec2::254',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '224.0.0.1',
    '255.255.255.255',
  ])('production refuses %s (loopback, private, link-local, metadata …, mapped forms too)', (address) =>
    expect(deliveryAddressError(address, 'production')).toMatch(/webhooks may not reach/),
  );

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34', '8.8.8.8'])(
    'production allows the public address %s',
    (address) => expect(deliveryAddressError(address, 'production')).toBeNull(),
  );

  it('sandbox allows loopback (a local receiver), and nothing else that is special', () => {
    expect(deliveryAddressError('127.0.0.1', 'sandbox')).toBeNull();
    expect(deliveryAddressError('::1', 'sandbox')).toBeNull();
    expect(deliveryAddressError('::ffff:127.0.0.1', 'sandbox')).toBeNull();
    expect(deliveryAddressError('10.0.0.1', 'sandbox')).toMatch(/private/);
    expect(deliveryAddressError('169.254.169.254', 'sandbox')).toMatch(/link-local/);
  });

  it('refuses what is not an address', () =>
    expect(deliveryAddressError('example.com', 'sandbox')).toMatch(/not an IP/));
});

describe('an endpoint url at registration', () => {
  it('production: https and a public, fully qualified host only', () => {
    expect(validateEndpointUrl('https://hooks.example.com/x', 'production')).toEqual([]);
    expect(validateEndpointUrl('http://hooks.example.com/x', 'production')).toEqual([
      { field: 'url', message: 'must use https in production' },
    ]);
    for (const url of [
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://10.0.0.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/x',
      'https://localhost/x',
      'https://intranet/x',
      'https://2130706433/x',
    ]) {
      expect(validateEndpointUrl(url, 'production').map((e) => e.field)).toEqual(['url']);
    }
  });

  it('sandbox: http and loopback for local testing; private and metadata still refused', () => {
    expect(validateEndpointUrl('http://127.0.0.1:9000/hooks', 'sandbox')).toEqual([]);
    expect(validateEndpointUrl('http://localhost:9000/hooks', 'sandbox')).toEqual([]);
    expect(validateEndpointUrl('http://169.254.169.254/', 'sandbox')).toHaveLength(1);
    expect(validateEndpointUrl('http://192.168.0.10/', 'sandbox')).toHaveLength(1);
  });

  it('refuses a missing, malformed or credential-bearing URL', () => {
    expect(validateEndpointUrl('', 'sandbox')).toHaveLength(1);
    expect(validateEndpointUrl(42, 'sandbox')).toHaveLength(1);
    expect(validateEndpointUrl('ftp://hooks.example.com/', 'sandbox')).toHaveLength(1);
    expect(validateEndpointUrl('https://user:pw@hooks.example.com/', 'sandbox')).toHaveLength(1);
  });
});
