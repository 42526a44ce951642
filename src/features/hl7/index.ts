/** HL7 v2 (issue 36) as the app composes it: the organisation page's HL7 tab (orders in and results out). */
export { default as Hl7Tab } from './Hl7Tab';
export { hl7InboundCommands } from './commands';
export { hl7OutboundCommands } from './outboundCommands';
