import { ConsultationList } from './ConsultationListPage';

/** /consultations/my: the list narrowed to the consultations the account applied for or is a member of. */
export default function MyConsultationsPage() {
  return <ConsultationList mine />;
}
