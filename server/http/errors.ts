import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../../contract/errors';

/** Default English messages; the client shows its own translation of the code. */
const MESSAGES: Record<ErrorCode, string> = {
  ParamsError: 'Parameter error',
  PasswordTooSimple: 'The password is too simple: use at least two of letters, digits and special characters',
  InvalidCredentials: 'Invalid username or password',
  JsonWebTokenError: 'Login verification failed',
  TokenExpiredError: 'Login expired, please log in again',
  LoginConflict: 'Login conflict: logged in on another account, please log in again',
  PasswordResetRequired: 'The password no longer meets the rules and must be reset',
  AccountDisabled: 'This account is disabled',
  Forbidden: 'Operation denied (no permission)',
  RegistrationClosed: 'Registration is not open on this domain',
  NotFound: 'Not found',
  UsernameTaken: 'The username is already taken',
  ReportLocked: 'The report has been locked by another user, your edit is invalid',
  VersionConflict: 'The report was changed by someone else; reload it',
  InvalidTransition: 'The operation failed',
  ReportEmpty: 'Findings or conclusion must not be empty',
  JointExamsPending: 'This exam has joint exams: confirm or discard them before submitting',
  DuplicateName: 'The name is already used here',
  TemplateFolderNotEmpty: 'The folder is not empty',
  TooManyAttempts: 'Too many attempts, please try again later',
  NoPrintTemplate: 'No print template configured or no default chosen',
  TemplateDownloadFailed: 'Template download failed',
  DeviceNoAddress: 'The device has no DICOM host and port',
  FileTooLarge: 'Upload failed, file greater than 5M',
  TooManyImages: 'More than 6 images',
  UploadTokenFailed: 'Failed to get an upload token',
  ExportTooLarge: 'At most 3000 rows can be exported',
  RepackTooSoon: 'Repackaging is allowed once per hour',
  SearchTooShort: 'Search needs more than 2 characters',
  NotDicom: 'The file is not a DICOM file',
  InvalidDicom: 'The DICOM file is damaged or incomplete',
  UnsupportedFileType: 'This type of file is not accepted here',
  UploadTooLarge: 'The file is larger than allowed',
  FileTokenExpired: 'The upload or download permit has expired',
  FileTokenInvalid: 'The upload or download permit is not valid',
  StudyMismatch: 'The file belongs to a different study than this exam',
  LinkExpired: 'This link has expired or has been withdrawn',
  RegistryTooManyExams: 'At most 5 exams per registration',
  ScheduledTimeInPast: 'The scheduled time must not be before today',
  ProcedureRequired: 'Choose a procedure step or a modality for every exam',
  UnknownProcedureStep: 'The procedure step is not one of this organisation',
  SourceIdRequired: 'The patient source needs its id (inpatient number and bed, outpatient number or physical exam number)',
  MatchMismatch: 'Only a completed exam of the same patient in the same organisation can be matched',
  QueueEmpty: 'Nobody is waiting in this queue',
  UnknownQueueNumber: 'No waiting patient has this number in this queue today',
  TtsUnavailable: 'Speech is not available for this language on the server',
  ConsultationTargetInvalid: "The target is not one of the group's consultation organisations",
  ConsultationResultEmpty: "The consultation conclusion cannot be empty",
  ConsultationTimePast: 'The start time has already passed; choose a later one',
  ConsultationRated: "This consultation has been rated; a rating cannot change",
  OrganizationCodeInvalid: 'The organisation code must be 4 to 35 letters, digits, dashes or underscores, beginning and ending with a letter or digit, without spaces or other special characters',
  OrganizationCodeTaken: 'This organisation code is already taken',
  OrganizationCodeBound: 'The organisation code is bound and cannot be changed',
  MemberExists: 'The member already exists',
  NotGroupMember: 'The account is not a member of this group',
  LastOrganizationAdmin: 'The organisation needs an admin: only a group admin can remove the last one',
  UnknownAction: 'Unknown action',
  DuplicatePackageName: 'An extension package with this name already exists',
  DuplicateCode: 'This code is already used in this organisation',
  UnknownReference: 'The referenced item does not belong to this organisation',
  InvalidOrder: 'The new order must list every item exactly once',
  KbResortOtherLevel: 'An item can only be sorted among the items of its own folder level',
  KbMoveIntoItself: 'A folder cannot be moved into itself or into one of its own folders',
  InUse: 'The item is still in use and cannot be deleted',
  GroupNameTaken: 'The group name is already taken',
  AlreadyInGroup: 'You already belong to a group and cannot create another one',
  GroupNotEmpty: 'The group still has organisations with exams',
  UnknownAccount: 'No account matches; check the ID or name',
  LastGroupAdmin: 'The group needs at least one administrator',
  BucketHasExams: 'The organisation still has exams',
  BucketNotInGroup: 'The organisation is not one of this group',
  NotBucketMember: 'The account is not a member of the organisation',
  NotificationLimit: 'Only 2 users per organisation can be notified',
  ImageType: 'The logo must be a JPEG or PNG image and the stamp a PNG image',
  ImageBroken: 'The image is damaged or incomplete',
  ImageTooLarge: 'The image is too large: at most 10,000 pixels a side and 40 million pixels in all',
  LogoNotSquare: 'The logo must be square',
  StampNotTransparent: 'The stamp must be a PNG with a transparent background',
  SignatureEmpty: 'The signature cannot be empty',
  MobileTaken: 'This mobile number is bound to another account',
  VerificationCodeInvalid: 'The verification code is wrong or no longer valid',
  OrderInvalid: 'Order error',
  PaymentCodeExpired: 'The payment code has expired; refresh it',
  PaymentChannelUnavailable: 'The payment service is not responding; try again',
  PaymentChannelError: 'The payment service returned an error',
  OrderAlreadyPaid: 'The order is already paid',
  PaymentInfoMissing: 'Payment information is missing',
  InsufficientBalance: 'The credit balance is not enough; please recharge',
  ChargePasswordWrong: 'Wrong password for credit payment',
  ChargeTokenInvalid: 'Confirm the payment with your password again',
  RefundProcessing: 'The refund is being processed; refresh the page',
  ExpertTargetsMixed: 'Paid and free organisations cannot be asked together',
  ExpertTargetInvalid: 'Choose at least one organisation offered for expert reports',
  TermsNotAgreed: 'Agree to the service terms first',
  RemoteReportRequested: 'A remote report was already requested for this exam',
  ReportWritingBegun: 'Writing has begun; the request can no longer be made or withdrawn',
  ExpertRequestOpen: 'This exam already has an open request with this expert organisation',
  ExamNotReportable: 'The exam has nothing to read yet: it was not performed and has no images',
  IdempotencyKeyReused: 'This request key was used for a different request',
  CreditDisabled: 'Credit is not enabled for this group',
  RegistryDisabled: 'The registry is not enabled for this group',
  PaymentNotificationInvalid: 'The payment notification could not be verified',
  StatisticsPeriodRequired: 'Choose a time period',
  StatisticsPeriodInvalid: 'The period ends before it begins',
  StatisticsRangeTooLong: 'The period is too long for this statistic',
  NotAcceptable: 'None of the accepted media types can be answered',
  OperationFailed: 'Operation failed, please try again',
  UnknownError: 'Unknown error',
};

export class ApiError extends Error {
  readonly status: number;
  constructor(readonly code: ErrorCode, message?: string, readonly details?: Record<string, unknown>) {
    super(message ?? MESSAGES[code]);
    this.status = ERROR_STATUS[code];
  }
}

export const fail = (code: ErrorCode, message?: string, details?: Record<string, unknown>): never => {
  throw new ApiError(code, message, details);
};

/**
 * Whether an error is the form parser's word on a broken body: no boundary, a part cut off mid-way, the request
 * closed before the form ended. The parser (busboy) throws most of these as plain Errors without a status, so they
 * would be 500s; they are the sender's fault. formFile/fileBytes (server/http/multipart.ts) and, for files streamed
 * to storage, the error handler below turn them into 400 ParamsError.
 */
export function isBrokenForm(err: unknown): boolean {
  if (!(err instanceof Error) || err instanceof ApiError) return false;
  const code = (err as { code?: unknown }).code;
  if (code === 'FST_MP_PREMATURE_CLOSE' || code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return true;
  return /^Multipart: Boundary not found$|^Boundary required$|unexpected end of multipart data$|^Malformed part header$|^Unexpected end of form$/i.test(err.message);
}

const isForm = (req: FastifyRequest) => /^multipart\//i.test(req.headers['content-type'] ?? '');

const paramsError = { code: 'ParamsError', message: MESSAGES.ParamsError } as const;

/**
 * Fastify's router errors, answered before any route runs: a path parameter over maxParamLength (414
 * FST_ERR_MAX_PARAM_LENGTH) or a path that does not decode (FST_ERR_BAD_URL). Both are bad input: 400 ParamsError.
 * Given to Fastify as its `frameworkErrors` option (server/app.ts).
 */
export function frameworkErrors(_err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  void reply.status(400).send(paramsError);
}

/** Every error leaves as `{ code, message }`; Fastify's own 4xx (bad JSON, body too large) become ParamsError. */
export function installErrorHandler(app: FastifyInstance, opts: { serveIndex?: boolean } = {}): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (err instanceof ApiError) {
      return reply.status(err.status).send({ code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) });
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if ((status >= 400 && status < 500) || (isForm(req) && isBrokenForm(err))) {
      return reply.status(400).send({ code: 'ParamsError', message: MESSAGES.ParamsError });
    }
    req.log.error(err);
    return reply.status(500).send({ code: 'UnknownError', message: MESSAGES.UnknownError });
  });
  app.setNotFoundHandler((req, reply) => {
    // History-mode routing: with the web app being served, any non-API GET that is not a file gets the app shell
    // (a missing /assets/ chunk stays a 404, so the client sees a ChunkLoadError rather than HTML).
    if (opts.serveIndex && req.method === 'GET' && !req.url.startsWith('/api/') && !req.url.startsWith('/assets/')) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send({ code: 'NotFound', message: `${req.method} ${req.url.split('?')[0]} not found` });
  });
}
