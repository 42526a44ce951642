/** DICOM reading shared by the upload wizard (browser) and the server: no Node-only APIs here. */
export { charsetOf, decodeText, type Charset } from './charset';
export { groupInstances, type GroupableInstance, type Grouping, type SeriesGroup, type StudyGroup } from './group';
export { hasPreamble, isUid, readDicomHeader, type DicomHeader, type DicomReadResult, type DicomRefusal, type ReadOptions } from './header';
export { displayPersonName, personNameFor, splitPersonName, storedPersonName, type PersonName } from './personName';
export { studyInfoFromHeaders } from './studyInfo';
export { naturalWindow, windowRange, type FrameFacts, type Window } from './window';
