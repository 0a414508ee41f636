/**
 * Which secret may go to which endpoint is the user's decision, never a client's: a model created
 * over the bridge (or MCP over HTTP) may name an environment variable (`apiKeyEnv`) or a stored
 * secret (`apiKeySecret`) only when the user listed that name in `askcode.bridge.allowedSecrets`
 * (or `askcode serve --allow-secret NAME`). Such a model may still reach its endpoint, with no key.
 * Models created from VS Code's own command, the worker's JSON-RPC or the CLI are the user's own.
 */
import type { CallOrigin } from '../core/service';
import type { CoreOptions } from '../core/options';
import type { ModelSource } from '../protocol/models';
import { forbidden, invalid } from '../core/errors';

/** Where a model was created: a client of the bridge is not the user. */
export type CreatedVia = 'user' | 'bridge';

export function createdVia(origin: CallOrigin): CreatedVia {
  return origin === 'bridge' || origin === 'mcp' ? 'bridge' : 'user';
}

export function allowedSecrets(options: CoreOptions): Set<string> {
  const list = options.settings?.bridge?.allowedSecrets;
  return new Set(Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : []);
}

/** The secret names a source asks for. */
function namedSecrets(src: ModelSource | undefined): { field: string; name: string }[] {
  if (src?.kind !== 'openai') return [];
  const out: { field: string; name: string }[] = [];
  if (src.apiKeyEnv) out.push({ field: 'apiKeyEnv', name: src.apiKeyEnv });
  if (src.apiKeySecret) out.push({ field: 'apiKeySecret', name: src.apiKeySecret });
  return out;
}

/** Refuses (403) a bridge-created model that names a secret the user did not allow. */
export function checkCreateSecrets(src: ModelSource | undefined, via: CreatedVia, options: CoreOptions, field: string): void {
  if (via !== 'bridge') return;
  const allowed = allowedSecrets(options);
  for (const s of namedSecrets(src)) {
    if (!allowed.has(s.name)) {
      throw forbidden(
        `a bridge client may not name the secret '${s.name}': only names the user allowed in askcode.bridge.allowedSecrets ` +
          `(or askcode serve --allow-secret ${s.name}) can be sent to an endpoint`,
        `${field}.${s.field}`,
      );
    }
  }
}

/**
 * The API key look-up of an OpenAI-compatible model. A user's model reads its named variable or
 * secret (falling back to OPENAI_API_KEY); a bridge-created one only a name that is allowed now
 * (the list may have shrunk since it was created), and never the fallback.
 */
export function apiKeyLookup(src: Extract<ModelSource, { kind: 'openai' }>, via: CreatedVia, options: CoreOptions): () => Promise<string | null> {
  if (via === 'bridge') {
    return async () => {
      const allowed = allowedSecrets(options);
      if (src.apiKeyEnv && allowed.has(src.apiKeyEnv) && process.env[src.apiKeyEnv]) return process.env[src.apiKeyEnv]!;
      if (src.apiKeySecret && allowed.has(src.apiKeySecret)) return (await options.secrets?.(src.apiKeySecret)) ?? null;
      return null;
    };
  }
  // A named environment variable is read where the model runs (the worker's environment);
  // a named secret comes from the secret store (VS Code SecretStorage via the client).
  return async () => {
    if (src.apiKeyEnv && process.env[src.apiKeyEnv]) return process.env[src.apiKeyEnv]!;
    const name = src.apiKeySecret ?? src.apiKeyEnv ?? 'OPENAI_API_KEY';
    return (await options.secrets?.(name)) ?? process.env[name] ?? null;
  };
}
