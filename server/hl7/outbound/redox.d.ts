/** The part of @redoxengine/redox-hl7-v2 (no typings of its own) the outbound messages use. */
declare module '@redoxengine/redox-hl7-v2' {
  /** A message as JSON: segment groups and segments by name, fields by number, components by number. */
  type V2Json = Record<string, unknown>;
  const v2: {
    Generator: new (schema?: unknown) => { write(json: V2Json): string };
    Parser: new (schema?: unknown) => { parse(text: string): V2Json };
  };
  export default v2;
}
