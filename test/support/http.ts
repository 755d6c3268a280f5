/** Small HTTP helpers for tests that talk to a devnet over loopback. */

/** Query values: arrays are sent as repeated keys (`account=A&account=B`), as the real service expects. */
export type Query = Readonly<Record<string, string | number | boolean | readonly (string | number)[] | undefined>>;

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export interface JsonReply<T = unknown> {
  readonly status: number;
  /** The body exactly as received. */
  readonly text: string;
  readonly body: T;
}

/** A client bound to one devnet URL and API key. */
export class DevnetClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey?: string,
  ) {}

  async get<T = unknown>(version: 'v2' | 'v3', endpoint: string, query?: Query, headers: Record<string, string> = {}): Promise<JsonReply<T>> {
    const res = await fetch(`${this.baseUrl}/api/${version}/${endpoint}${queryString(query)}`, {
      headers: { ...(this.apiKey === undefined ? {} : { 'X-API-Key': this.apiKey }), ...headers },
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as T };
  }

  /** POST a JSON body (`/api/v3/message`, `/api/v3/runGetMethod`, …). */
  async post<T = unknown>(version: 'v2' | 'v3', endpoint: string, body: unknown): Promise<JsonReply<T>> {
    const res = await fetch(`${this.baseUrl}/api/${version}/${endpoint}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(this.apiKey === undefined ? {} : { 'X-API-Key': this.apiKey }) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as T };
  }

  v3<T = unknown>(endpoint: string, query?: Query, headers?: Record<string, string>): Promise<JsonReply<T>> {
    return this.get<T>('v3', endpoint, query, headers);
  }

  v2<T = unknown>(endpoint: string, query?: Query, headers?: Record<string, string>): Promise<JsonReply<T>> {
    return this.get<T>('v2', endpoint, query, headers);
  }

  /** A v3 list endpoint's items under `key`; fails loudly (with the body) on any status but 200. */
  async items<T = Record<string, unknown>>(endpoint: string, key: string, query?: Query, headers?: Record<string, string>): Promise<T[]> {
    const reply = await this.v3<Record<string, unknown>>(endpoint, query, headers);
    if (reply.status !== 200) throw new Error(`GET /api/v3/${endpoint}${queryString(query)} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
    const items = reply.body[key];
    if (!Array.isArray(items)) throw new Error(`GET /api/v3/${endpoint}: no array under "${key}" in ${reply.text.slice(0, 300)}`);
    return items as T[];
  }
}
