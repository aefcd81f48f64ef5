/** A sample's value from a server's `/metrics` (Prometheus text), by its exact name and labels. */
export async function metricValue(url: string, name: string): Promise<number | undefined> {
  const body = await (await fetch(`${url}/metrics`)).text();
  const line = body.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}
