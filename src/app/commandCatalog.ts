import { globalCommands } from '@/features/palette/commands';
import { viewerCommands } from '@/features/viewer/commands';
import { uploadCommands } from '@/features/upload/commands';
import { worklistCommands } from '@/features/worklist/commands';
import { printCommands, reportCommands } from '@/features/report/commands';
import { publishDetailCommands, publishListCommands } from '@/features/publish/commands';
import { registryCommands } from '@/features/registry/commands';
import { callingCommands, screenCommands } from '@/features/calling/commands';
import { dicomCommands, groupCommands, groupSettingsCommands, memberListCommands, organizationCommands, organizationListCommands, roleCommands } from '@/features/admin/commands';
import { templatesCommands } from '@/features/templates/commands';
import { hl7InboundCommands, hl7OutboundCommands } from '@/features/hl7';
import { printTemplateCommands } from '@/features/admin/organization/printTemplates/commands';
import { sampleGraphEditorCommands, sampleGraphListCommands } from '@/features/admin/organization/sampleGraphs/commands';
import { settingsCommands } from '@/features/settings/commands';
import { learningDetailCommands, learningListCommands } from '@/features/learning/commands';
import { kbCommands } from '@/features/kb/commands';
import { consultationCommands } from '@/features/consultations/detail/commands';
import {
  consultationCreateCommands, consultationListCommands, consultationRequestEditorCommands, consultationRequestWorklistCommands,
} from '@/features/consultations/commands';
import {
  applyCommands, chargeCommands, orderCommands, reportRequestEditorCommands, reportRequestWorklistCommands,
} from '@/features/payments';
import { orderDetailCommands, orderListCommands } from '@/features/payments/orders/commands';
import { creditCommands } from '@/features/payments/credit/commands';
import { statisticsCommands } from '@/features/statistics';
import { pathologyEditorCommands, pathologyWorklistCommands } from '@/features/pathology';
import { examEditEditorCommands, examEditWorklistCommands } from '@/features/examEdit';
import type { CommandSpec } from '@/lib/commands';

/**
 * Every command list of the app, as data. Tests import this (the conflict check and the locale check), and the help
 * screen (app/help) lists its shortcuts by screen:
 * it is the one place lib/ names features, so that no feature ships a shortcut the tests have not compared.
 * A feature with commands exports them from src/features/<area>/commands.ts and adds them here.
 * (`never`: the lists take different contexts; the checks read their data and never call them.)
 */
export const commandCatalog: Record<string, readonly CommandSpec<never>[]> = {
  kb: kbCommands,
  consultation: consultationCommands,
  consultationList: consultationListCommands,
  consultationCreate: consultationCreateCommands,
  consultationRequestEditor: consultationRequestEditorCommands,
  consultationRequestWorklist: consultationRequestWorklistCommands,
  paymentsApply: applyCommands,
  paymentsOrder: orderCommands,
  paymentsCharge: chargeCommands,
  paymentsRequestEditor: reportRequestEditorCommands,
  paymentsRequestWorklist: reportRequestWorklistCommands,
  paymentsOrders: orderListCommands,
  paymentsOrderDetail: orderDetailCommands,
  paymentsCredit: creditCommands,
  statistics: statisticsCommands,
  hl7Outbound: hl7OutboundCommands,
  pathologyEditor: pathologyEditorCommands,
  pathologyWorklist: pathologyWorklistCommands,
  examEditEditor: examEditEditorCommands,
  examEditWorklist: examEditWorklistCommands,
  global: globalCommands,
  settings: settingsCommands,
  viewer: viewerCommands,
  upload: uploadCommands,
  worklist: worklistCommands,
  report: reportCommands,
  print: printCommands,
  publishList: publishListCommands,
  publishDetail: publishDetailCommands,
  registry: registryCommands,
  calling: callingCommands,
  callingScreen: screenCommands,
  adminGroup: groupCommands,
  adminOrganization: organizationCommands,
  adminDicom: dicomCommands,
  hl7Inbound: hl7InboundCommands,
  adminOrganizations: organizationListCommands,
  adminMembers: memberListCommands,
  adminRoles: roleCommands,
  adminGroupSettings: groupSettingsCommands,
  learningList: learningListCommands,
  learningDetail: learningDetailCommands,
  templates: templatesCommands,
  printTemplates: printTemplateCommands,
  sampleGraphs: sampleGraphListCommands,
  sampleGraphEditor: sampleGraphEditorCommands,
};

/** Screen scopes pushed together on one page; their shortcuts must not collide either. */
export const scopesTogether = [['editor', 'viewer']] as const;
