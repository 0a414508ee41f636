/**
 * Seeds as askcode writes and reads them: the one Application literal, the version (from
 * package.json at build time), and the fragment of a seed. Browser-safe: no Node built-ins.
 */
import type { Application, Seed, SeededAsset } from './wire';

declare const __ASKCODE_VERSION__: string | undefined;

/** askcode's version: package.json's, defined by the build (esbuild `define`); tests run the source. */
export const VERSION: string = typeof __ASKCODE_VERSION__ === 'string' ? __ASKCODE_VERSION__ : '0.0.0-dev';

export type Platform = 'WINDOWS' | 'MACOS' | 'LINUX';

/** The Application every seed askcode emits carries (the wire requires a full one inside SeededAsset). */
export function askcodeApplication(platform: Platform = 'LINUX', id = 'askcode', name = 'OPEN_SOURCE'): Application {
  return { id, name, version: VERSION, platform, onboarded: true, privacy: 'OPEN' };
}

/** A Node `process.platform` as the wire's platform. */
export function platformOf(p: string): Platform {
  return p === 'win32' ? 'WINDOWS' : p === 'darwin' ? 'MACOS' : 'LINUX';
}

/** A text fragment as a SEEDED_ASSET seed. */
export function fragmentSeed(text: string, ext: string | undefined, application: Application, metadata?: SeededAsset['metadata']): Seed {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application,
      format: { fragment: { string: { raw: text }, ...(ext !== undefined ? { metadata: { ext } } : {}) } },
      ...(metadata ? { metadata } : {}),
    },
  };
}

function fromBase64(b64: string): string {
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** A seed as the schema lets it through (null stands for absent, as the SDK's JSON writes it). */
export type SeedLike = {
  asset?: { format?: { fragment?: {
    string?: { raw?: string | null; base64?: string | null } | null;
    metadata?: { ext?: string | null } | null;
  } | null } | null } | null;
} | null | undefined;

/** The fragment string of a (schema-checked) seed, raw or base64, or undefined when it carries none. */
export function seedFragment(seed: SeedLike): { text: string; ext?: string } | undefined {
  const fragment = seed?.asset?.format?.fragment;
  const str = fragment?.string;
  const ext = fragment?.metadata?.ext ?? undefined;
  if (typeof str?.raw === 'string') return { text: str.raw, ext };
  if (typeof str?.base64 === 'string') return { text: fromBase64(str.base64), ext };
  return undefined;
}

/** The field of a seed's raw fragment string, for errors. */
export const FRAGMENT_FIELD = 'asset.format.fragment.string.raw';
