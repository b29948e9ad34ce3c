/**
 * The routes the server has, by method and pattern, so that a path served under other methods
 * answers 405 with `Allow` rather than 404 (Fastify itself only knows "no route").
 */
export class RouteTable {
  private readonly routes: { method: string; pattern: RegExp }[] = [];
  private readonly registered: { method: string; url: string }[] = [];

  add(method: string | string[], url: string): void {
    const pattern = new RegExp(
      `^${url
        .split('/')
        .map((part) =>
          part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/')}/?$`,
    );
    for (const m of Array.isArray(method) ? method : [method]) {
      this.routes.push({ method: m, pattern });
      this.registered.push({ method: m, url });
    }
  }

  /** Every route as Fastify registered it (`/api/v1/merchants/:merchantId`), HEAD included. */
  list(): readonly { method: string; url: string }[] {
    return this.registered;
  }

  /** The methods served at this path (empty when the path is unknown). */
  methodsFor(path: string): string[] {
    const bare = path.split('?')[0];
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(bare)) methods.add(route.method);
    return [...methods].sort();
  }
}
