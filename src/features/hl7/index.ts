/** HL7 v2 (issue 36): the organisation's HL7 tab. Orders in: InboundPanel. */
export { InboundPanel } from './InboundPanel';
export { hl7InboundCommands } from './commands';
