/**
 * The lock file of a scratch project that depends on the packed tarball alone: the tarball's
 * entry plus the closure of its production dependencies, resolved the way Node and npm lay them
 * out, with the exact versions, URLs and integrities of this repository's package-lock.json. So
 * `npm ci --offline` installs it from the npm cache `npm ci` of this repository filled, with no
 * registry request (npm needs registry metadata to resolve ranges without a lock).
 */

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

/** The package.json fields of the packed package the lock needs. */
export interface PackedManifest {
  name: string;
  version: string;
  license?: string;
  dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
}

/** Where Node finds `name` required from the package installed at `from` (a lock path). */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/** The registry's tarball URL of the package at lock path `at` (`.../node_modules/@scope/name`). */
function tarballUrl(at: string, entry: LockEntry): string {
  const name = at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const base = name.includes('/') ? name.slice(name.indexOf('/') + 1) : name;
  return `https://registry.npmjs.org/${name}/-/${base}-${entry.version}.tgz`;
}

/**
 * Builds `{ packageJson, lock }` for a project depending on `spec` (`file:...tgz`) only.
 * @throws Error when a production dependency is missing from the repository lock (run `npm install`).
 */
export function consumerLock(
  repoLock: { packages: Record<string, LockEntry> },
  manifest: PackedManifest,
  spec: string,
): { packageJson: object; lock: object } {
  const source = repoLock.packages;
  const out: Record<string, LockEntry> = {
    '': { name: 'consumer', dependencies: { [manifest.name]: spec } },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: spec,
      ...(manifest.license ? { license: manifest.license } : {}),
      ...(manifest.dependencies ? { dependencies: manifest.dependencies } : {}),
      ...(manifest.bin ? { bin: manifest.bin } : {}),
      ...(manifest.engines ? { engines: manifest.engines } : {}),
    },
  };
  const queue: Array<[string, Record<string, string>, boolean]> = [['', manifest.dependencies ?? {}, false]];
  while (queue.length > 0) {
    const [from, deps, optional] = queue.shift() as [string, Record<string, string>, boolean];
    for (const name of Object.keys(deps)) {
      const at = locate(source, from, name);
      if (!at) {
        if (optional) continue;
        throw new Error(`${name} (needed by ${from || manifest.name}) is not in package-lock.json`);
      }
      if (out[at]) continue;
      const { dev: _dev, devOptional: _devOptional, ...entry } = source[at] as LockEntry;
      // This repository's lock omits registry URLs (omit-lockfile-registry-resolved); without one
      // npm asks the registry where the tarball is. The integrity finds it in the cache.
      out[at] = { ...entry, ...(entry.resolved ? {} : { resolved: tarballUrl(at, entry) }) };
      queue.push([at, entry.dependencies ?? {}, false]);
      queue.push([at, entry.optionalDependencies ?? {}, true]);
      const peers = Object.keys(entry.peerDependencies ?? {}).filter(
        (peer) => entry.peerDependenciesMeta?.[peer]?.optional !== true,
      );
      queue.push([at, Object.fromEntries(peers.map((peer) => [peer, '*'])), false]);
    }
  }
  return {
    packageJson: { name: 'consumer', private: true, type: 'module', dependencies: { [manifest.name]: spec } },
    lock: { name: 'consumer', lockfileVersion: 3, requires: true, packages: out },
  };
}
