import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { dicomAdminRoutes } from '../dicom/routes';
import { hl7Routes } from '../hl7/routes';
import { hl7OutboundRoutes } from '../hl7/outbound/routes';
import { deviceRoutes } from './devices';
import { dictionaryRoutes } from './dictionaries';
import { memberRoutes } from './members';
import { printTemplateRoutes } from './printTemplates';
import { procedureRoutes } from './procedures';
import { roleRoutes } from './roles';
import { settingsRoutes } from './settings';

/**
 * Organisation administration (areas §7 "Organisations"): the organisation and its code, the upload token, members,
 * roles, dictionaries, procedures, steps, device groups and devices. Reads for the organisation's members (and its
 * group's admins), writes for its admins (and its group's admins); see ./access.ts. Queue types are the call queue's
 * (server/calling/), re-sorted by the same rule (./order.ts).
 */
export async function organizationRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  settingsRoutes(app, deps);
  memberRoutes(app, deps);
  roleRoutes(app, deps);
  dictionaryRoutes(app, deps);
  procedureRoutes(app, deps);
  deviceRoutes(app, deps);
  printTemplateRoutes(app, deps);
  dicomAdminRoutes(app, deps);
  hl7Routes(app, deps);
  hl7OutboundRoutes(app, deps);
}
