import { request } from './base';
import { z, nonEmpty } from './schema';
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

const Required = z.string().refine(nonEmpty, 'is required (a string)');

export const SeededConnectorConnectionSchema = z.looseObject({
  application: z.looseObject({
    name: Required,
    version: Required,
    platform: Required,
    capabilities: z.string().nullish(),
    privacy: z.string().nullish(),
    automaticUnload: z.boolean().nullish(),
  }),
});

/** Register (or recognise) a client application; the same application always gets the same id. */
export const ConnectorConnect = request<SeededConnectorConnection, ConnectorContext>('connector/connect', SeededConnectorConnectionSchema,
  { field: 'application', expected: 'a SeededConnectorConnection {"application": {"name", "version", "platform"}}' });
