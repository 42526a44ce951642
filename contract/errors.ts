/**
 * The error catalogue (core §8, areas §8). Every error the server sends is `{ code, message }`
 * with one of these codes; the client maps the code to an i18n key `errors.<code>`.
 */
export const ERROR_STATUS = {
  ParamsError: 400,
  PasswordTooSimple: 400,
  InvalidCredentials: 401,
  JsonWebTokenError: 401,
  TokenExpiredError: 401,
  LoginConflict: 401,
  PasswordResetRequired: 403,
  AccountDisabled: 403,
  Forbidden: 403,
  RegistrationClosed: 403,
  NotFound: 404,
  UsernameTaken: 409,
  ReportLocked: 409,
  VersionConflict: 409,
  InvalidTransition: 409,
  /** Reports: submit with findings and conclusion both empty (core §5). */
  ReportEmpty: 400,
  /** Reports: the exam has joint exams to confirm or discard before submitting (core §5); details.exams lists them. */
  JointExamsPending: 409,
  /** A name that must be unique where it is (areas §5: template and body part names). */
  DuplicateName: 409,
  TemplateFolderNotEmpty: 409,
  TooManyAttempts: 429,
  NoPrintTemplate: 400,
  TemplateDownloadFailed: 502,
  /** DICOM: an Echo (or a retrieve) to a device that has no host and port (issue 33). */
  DeviceNoAddress: 400,
  FileTooLarge: 400,
  TooManyImages: 400,
  UploadTokenFailed: 400,
  ExportTooLarge: 400,
  RepackTooSoon: 429,
  SearchTooShort: 400,
  /** Uploads and files (images area): a refused file says why in details.reason. */
  NotDicom: 400,
  InvalidDicom: 400,
  UnsupportedFileType: 400,
  UploadTooLarge: 400,
  /** Upload credentials and download tokens are not session tokens: never 401, so the session stays alive. */
  FileTokenExpired: 403,
  FileTokenInvalid: 403,
  StudyMismatch: 409,
  /** A share link or code that existed but expired or was revoked. */
  LinkExpired: 410,
  /** Registry (areas §5): at most 5 exams per registration. */
  RegistryTooManyExams: 400,
  /** Registry: a scheduled time before today in the organisation's time zone. */
  ScheduledTimeInPast: 400,
  /** Registry: an exam line with neither a procedure step nor a modality. */
  ProcedureRequired: 400,
  /** Registry: a procedure step that is not one of the organisation's. */
  UnknownProcedureStep: 400,
  /** Registry: the id the patient source needs is missing (details.fields names them). */
  SourceIdRequired: 400,
  /** Registry: a completed exam of another patient or organisation cannot take over a scheduled line. */
  MatchMismatch: 400,
  /** Call queue: nobody is waiting in the queue (call-next). */
  QueueEmpty: 409,
  /** Call queue: a re-sort to a number that is not waiting in that queue today. */
  UnknownQueueNumber: 400,
  /** Text-to-speech: no engine on this server, or no voice for the language (details.reason); the screen shows the call only. */
  TtsUnavailable: 503,
  /** Consultations: the target is not one of the group's consultation targets (nor its default). */
  ConsultationTargetInvalid: 400,
  /** Consultations (areas §5): the result's conclusion is empty. */
  ConsultationResultEmpty: 400,
  /** Consultations: a start time that has already passed (details.fields names scheduledTime). */
  ConsultationTimePast: 400,
  /** Consultations (areas §4): a rating once submitted never changes. */
  ConsultationRated: 409,
  /** Organisations (areas §5): a code of 4 to 35 letters and digits only. */
  OrganizationCodeInvalid: 400,
  /** Organisations: the code is used by another organisation (any case). */
  OrganizationCodeTaken: 409,
  /** Organisations: the code was bound and cannot change any more. */
  OrganizationCodeBound: 409,
  /** Organisations: the account is a member already. */
  MemberExists: 409,
  /** Organisations: only members of the organisation's group can be added to it. */
  NotGroupMember: 400,
  /** Organisations: the last organisation admin can be removed or demoted only by a group admin. */
  LastOrganizationAdmin: 409,
  /** Roles: an action that is not in the catalogue (details.actions). */
  UnknownAction: 400,
  /** Report extension packages: the name is used already in the organisation (any case). */
  DuplicatePackageName: 409,
  /** Procedures: the code is used already in the organisation. */
  DuplicateCode: 409,
  /** An id in the body that is not one of the organisation's (details.field). */
  UnknownReference: 400,
  /** A re-sort whose ids are not exactly the list's ids, each once. */
  InvalidOrder: 400,
  /** Knowledge base (areas §4): a re-sort whose preId is not a sibling of the item (another folder level or organisation). */
  KbResortOtherLevel: 400,
  /** Knowledge base: a move that would put an item inside itself or one of its own descendants. */
  KbMoveIntoItself: 400,
  /** A procedure or step still used by steps or exams (details.usedBy). */
  InUse: 409,
  /** Groups (areas §5): the group name is taken. */
  GroupNameTaken: 409,
  /** Groups (areas §5): an account that belongs to a group cannot create another one. */
  AlreadyInGroup: 409,
  /** Groups: a group whose organisations still hold exams cannot be deleted. */
  GroupNotEmpty: 409,
  /** Groups: no account has this username (invite). */
  UnknownAccount: 400,
  /** Groups: the group's last admin cannot leave, be removed or be demoted. */
  LastGroupAdmin: 409,
  /** Organisations: an organisation that holds exams (or other records) cannot be deleted. */
  BucketHasExams: 409,
  /** Groups: an organisation named in the input is not one of this group's. */
  BucketNotInGroup: 400,
  /** Groups: an account named in the input is not a member of the organisation. */
  NotBucketMember: 400,
  /** Groups (areas §5): at most 2 accounts are notified per organisation and type. */
  NotificationLimit: 400,
  /** Print templates (areas §5): the logo must be a JPEG or PNG, the stamp a PNG (details.accepted), judged on the bytes. */
  ImageType: 400,
  /** Print templates: the image file is cut short or damaged. */
  ImageBroken: 400,
  /** Any image upload: wider, taller or with more pixels than IMAGE_LIMITS (contract/files.ts), read from its header (details). */
  ImageTooLarge: 400,
  /** Print templates (areas §5): the logo must be square (details.width, details.height). */
  LogoNotSquare: 400,
  /** Print templates (areas §5): the stamp must be a PNG with a transparent background. */
  StampNotTransparent: 400,
  /** Settings (areas §5): a signature image with no ink (blank), or too small to be one. */
  SignatureEmpty: 400,
  /** Settings: the mobile number is bound to another account. */
  MobileTaken: 400,
  /** Settings: a verification code that is wrong, expired, used or out of tries (details.reason, details.triesLeft). */
  VerificationCodeInvalid: 400,
  /** Payments (areas §8 "order error"): the application or package cannot be paid this way (details.reason). */
  OrderInvalid: 400,
  /** Payments (areas §8): the QR code expired or was closed; refresh it (pre-paid-order?refresh=1). */
  PaymentCodeExpired: 409,
  /** Payments (areas §8 "server not responding"): the channel did not answer. */
  PaymentChannelUnavailable: 502,
  /** Payments (areas §8 "return error"): the channel answered with an error (details.channelCode). */
  PaymentChannelError: 502,
  /** Payments (areas §8): the application is paid already (by another tab or channel). */
  OrderAlreadyPaid: 409,
  /** Payments (areas §5, §8): a paying call without what it needs (the channel's configuration, the order's amount). */
  PaymentInfoMissing: 400,
  /** Credits (areas §5, §8): the group's balance is below the amount (details.balanceFen, details.amountFen); the client offers the recharge. */
  InsufficientBalance: 409,
  /** Credits (areas §8): the password for a charge token is wrong (counted by the login throttle). */
  ChargePasswordWrong: 400,
  /** Credits: the Charge-Authorization header is missing, expired or not this account's. */
  ChargeTokenInvalid: 401,
  /** Payments (areas §8): a refund is under way. */
  RefundProcessing: 409,
  /** Expert requests (areas §5): paid and free organisations are not mixed in one application. */
  ExpertTargetsMixed: 400,
  /** Expert requests (areas §5): no organisation, or one that is not an expert organisation of the group (details.fields). */
  ExpertTargetInvalid: 400,
  /** Expert requests (areas §5): the service terms must be agreed before submitting. */
  TermsNotAgreed: 400,
  /** Remote report (core §4): requested once per exam; withdraw it to ask again. */
  RemoteReportRequested: 409,
  /** Remote report (core §4): only before writing has begun. */
  ReportWritingBegun: 409,
  /** Expert requests: the exam already has an open request with this organisation (details.orderId, bucketIds); no double billing. */
  ExpertRequestOpen: 409,
  /** Expert requests: the exam has nothing to read yet (not performed, no images: contract/reportable.ts isReportable). */
  ExamNotReportable: 409,
  /** Payments: an Idempotency-Key repeated with another body. */
  IdempotencyKeyReused: 409,
  /** Credits (areas §6): the group's enableCredit is off. */
  CreditDisabled: 403,
  /** Registry (areas §6 "Group flags gate features"): the group's enableRegistry is off. */
  RegistryDisabled: 403,
  /** Payments: a channel notification whose signature or timestamp does not verify. */
  PaymentNotificationInvalid: 401,
  /** Statistics (areas §5): a time period is required (from and to, or a quick range). */
  StatisticsPeriodRequired: 400,
  /** Statistics: the period ends before it begins. */
  StatisticsPeriodInvalid: 400,
  /** Statistics (areas §5): device workload and day ranges at most one month, note-taker and remote-report at most one year (details.limit, details.lastDay). */
  StatisticsRangeTooLong: 400,
  /** DICOMweb: the Accept header (or a STOW part's type) names no media type the service answers (details.accept). */
  NotAcceptable: 406,
  OperationFailed: 500,
  UnknownError: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  /** Extra facts the client may show, e.g. the locker's name for ReportLocked. */
  details?: Record<string, unknown>;
}

/** Codes after which the stored token is useless and the session machine must expire. */
export const SESSION_ENDING_CODES: readonly ErrorCode[] = ['TokenExpiredError', 'JsonWebTokenError'];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS;
}
