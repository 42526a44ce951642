/** The part of dcmjs (no typings of its own) the server uses: its data dictionary and its Part 10 reader. */
declare module 'dcmjs' {
  interface DictionaryEntry { tag: string; vr: string; vm?: string; name: string }
  /** One element of DICOM JSON (PS3.18 F.2) as dcmjs reads it: binary values are ArrayBuffers, names objects. */
  interface DictElement { vr: string; Value?: unknown[]; InlineBinary?: string; BulkDataURI?: string }
  interface DicomDict { meta: Record<string, DictElement>; dict: Record<string, DictElement> }
  interface ReadOptions { ignoreErrors?: boolean; untilTag?: string | null; includeUntilTagValue?: boolean; noCopy?: boolean; forceStoreRaw?: boolean }
  const dcmjs: {
    data: {
      DicomMetaDictionary: {
        nameMap: Record<string, DictionaryEntry | undefined>;
        dictionary: Record<string, DictionaryEntry | undefined>;
      };
      DicomMessage: { readFile(buffer: ArrayBuffer, options?: ReadOptions): DicomDict };
    };
    log: { setLevel?(level: string): void; level?: unknown };
  };
  export default dcmjs;
}
