import { createHash } from 'node:crypto';
import type { Service } from '../core/service';
import { ConnectorConnect, type ConnectorContext } from '../protocol/connector';

export interface ConnectorDeps {
  /** Makes the server's id stable for one data folder (what PiecesOS calls its OS id). */
  dataDir: string;
  version: string;
}

/** A UUID-shaped id that is the same for the same text (so reconnecting gives the same ids). */
function stableUuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** `connector/connect` (`POST /connect`): a client application says hello and gets its Application back. */
export function registerConnector(service: Service, deps: ConnectorDeps): void {
  service.register(ConnectorConnect, (params): ConnectorContext => {
    // The params passed the entry's schema: name, version and platform are there.
    const app = params.application;
    const os = stableUuid(`askcode-os:${deps.dataDir}`);
    const { name, version, platform } = app;
    return {
      os,
      application: {
        id: stableUuid(`askcode-application:${name}:${version}:${platform}`),
        name,
        version,
        platform,
        onboarded: true,
        // Nothing leaves this machine unless the user points a model at a remote endpoint.
        privacy: typeof app.privacy === 'string' ? app.privacy : 'CLOSED',
        capabilities: typeof app.capabilities === 'string' ? app.capabilities : 'LOCAL',
        ...(typeof app.automaticUnload === 'boolean' ? { automaticUnload: app.automaticUnload } : {}),
      },
      health: { os: { id: os, version: deps.version } },
    };
  });
}
