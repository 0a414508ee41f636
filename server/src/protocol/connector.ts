import { request } from './base';
import { z } from './schema';
import type { Application } from './wire';

/**
 * PiecesOS's ConnectorApi `/connect`: the first call of Pieces' own TypeScript copilot example,
 * which registers the calling application and reads back its `Application` (with an id).
 */

/** SeededTrackedApplication: who is connecting. */
export interface SeededTrackedApplication {
  name: string;
  version: string;
  platform: string;
  capabilities?: string;
  privacy?: string;
  automaticUnload?: boolean;
}

export interface SeededConnectorConnection {
  application: SeededTrackedApplication;
}

/** The answer to `/connect`: the server's id, the application as registered, and the server's health. */
export interface ConnectorContext {
  os: string;
  application: Application;
  health: { os: { id: string; version: string } };
}

/** Register (or recognise) a client application; the same application always gets the same id. */
export const ConnectorConnect = request<SeededConnectorConnection, ConnectorContext>('connector/connect',
  z.looseObject({
    application: z.looseObject({
      name: z.string().min(1), version: z.string().min(1), platform: z.string().min(1),
      capabilities: z.string().nullish(), privacy: z.string().nullish(), automaticUnload: z.boolean().nullish(),
    }),
  }),
  { field: 'application', expected: 'a SeededConnectorConnection {"application": {"name", "version", "platform"}}' });
