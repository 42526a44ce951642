/** The HL7 interface's screens as the app composes them (the organisation page's HL7 tab). */
export { default as Hl7Tab } from './Hl7Tab';
export { hl7OutboundCommands } from './outboundCommands';
