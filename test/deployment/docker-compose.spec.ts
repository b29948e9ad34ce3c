import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../libs/platform/src/config/config';

/**
 * Docker is not available where the tests run, so the compose files are checked for what running
 * them would need: the services and what they depend on, one PostgreSQL and the same keys for
 * every replica, an environment the service accepts, and a proxy that knows every replica.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

type Mapping = Record<string, unknown>;
interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const load = (file: string) => parse(read(file), { merge: true }) as Compose;

/** `docker compose -f a -f b`: mappings merge key by key, the later file winning. */
function merged(base: Mapping, override: Mapping): Mapping {
  const out: Mapping = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    const bothMappings =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object';
    out[key] = bothMappings ? merged(current as Mapping, value as Mapping) : value;
  }
  return out;
}

/** `${NAME:-default}` as compose expands it with NAME unset. */
const expand = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

const APPS = ['app-1', 'app-2', 'app-3'];

function checkReplicas(compose: Compose) {
  const apps = APPS.map((name) => compose.services[name]);
  // One image, one environment: the replicas are interchangeable behind the proxy.
  for (const app of apps) {
    expect(app).toEqual(apps[0]);
    expect(app.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  }
  const env = Object.fromEntries(
    Object.entries(apps[0].environment ?? {}).map(([name, value]) => [name, expand(String(value))]),
  );
  const config = loadConfig(env); // throws on anything the service would refuse at start
  expect(config.host).toBe('0.0.0.0');
  expect(new URL(config.databaseUrl!).hostname).toBe('postgres');
  // Both keys fixed for all replicas (a generated one would differ per container).
  expect(config.platformOperatorKey).not.toBeNull();
  expect(config.vaultKey).not.toBeNull();
  expect(config.trustProxy.length).toBeGreaterThan(0);
  return config;
}

describe('docker-compose.yml', () => {
  const compose = load('docker-compose.yml');

  it('runs PostgreSQL, three replicas of the service and a proxy, and declares every volume it names', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app-1', 'app-2', 'app-3', 'postgres', 'proxy']);
    expect(compose.services.postgres.healthcheck?.test).toBeDefined();
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0];
        if (source.startsWith('.')) expect(() => read(source)).not.toThrow();
        else expect(Object.keys(compose.volumes ?? {})).toContain(source);
      }
    }
  });

  it('gives every replica the same image and an environment the service accepts: one database, shared keys', () => {
    const config = checkReplicas(compose);
    expect(config.eventStoreUrl).toBeNull(); // events in PostgreSQL
    expect(compose.services['app-1'].build).toBe('.');
    // The image runs what `npm start` runs.
    const start = JSON.parse(read('package.json')).scripts.start as string;
    const main = /node (dist\/\S+\.js)$/.exec(start)![1];
    expect(read('Dockerfile')).toContain(`CMD ["node", "${main}"]`);
  });

  it('puts the proxy in front of every replica, on the address the service gives in its links', () => {
    const proxy = compose.services.proxy;
    expect(Object.keys(proxy.depends_on ?? {}).sort()).toEqual(APPS);
    const [published] = proxy.ports ?? [];
    const [hostPort, containerPort] = published.split(':');
    const config = checkReplicas(compose);
    expect(new URL(config.publicBaseUrl).port).toBe(hostPort);
    const caddyfile = read(proxy.volumes![0].split(':')[0]);
    expect(caddyfile).toContain(`:${containerPort} {`);
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)![1].trim().split(/\s+/);
    expect(upstreams).toEqual(APPS.map((app) => `${app}:${config.port}`));
    // The replicas keep idle connections open longer than the proxy reuses them.
    const keepalive = Number(/keepalive (\d+)s/.exec(caddyfile)![1]) * 1000;
    expect(config.httpKeepAliveTimeoutMs).toBeGreaterThan(keepalive);
  });
});

describe('docker-compose.kurrentdb.yml over docker-compose.yml', () => {
  const compose = merged(
    load('docker-compose.yml') as unknown as Mapping,
    load('docker-compose.kurrentdb.yml') as unknown as Mapping,
  ) as unknown as Compose;

  it('adds KurrentDB, and every replica keeps its events there and waits for it', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'app-1',
      'app-2',
      'app-3',
      'kurrentdb',
      'postgres',
      'proxy',
    ]);
    const config = checkReplicas(compose);
    expect(new URL(config.eventStoreUrl!).hostname).toBe('kurrentdb');
    for (const app of APPS) {
      expect(compose.services[app].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        kurrentdb: { condition: 'service_healthy' },
      });
    }
    for (const volume of compose.services.kurrentdb.volumes ?? []) {
      expect(Object.keys(compose.volumes ?? {})).toContain(volume.split(':')[0]);
    }
  });
});
