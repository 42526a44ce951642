import type {
  BucketExtension, Department, Doctor, ExtensionPackage, PackageInput, UploadToken,
} from '../../../../contract/organizations';
import { http, type RequestOptions } from '@/lib/http';

/** The doctor a form sends (contract `doctorInput`: departmentId 0 = none, physicianType 1 unless chosen). */
export interface DoctorValues { name: string; departmentId: number; physicianType: number }
/** An extension key (letters, digits, dash, underscore) with its label (contract `extensionInput`). */
export interface ExtensionValues { key: string; label: string }

/**
 * The organisation settings tab's dictionaries beyond the name-only ones (docs/api.md "Organisations"): doctors,
 * extensions, report extension packages, and the public upload token.
 */
export const organizationSettingsApi = {
  departments: (id: number, options?: RequestOptions) => http.get<Department[]>(`buckets/${id}/departments`, options),

  doctors: (id: number, options?: RequestOptions) => http.get<Doctor[]>(`buckets/${id}/doctors`, options),
  createDoctor: (id: number, input: DoctorValues) => http.post<Doctor>(`buckets/${id}/doctors`, input),
  updateDoctor: (id: number, itemId: number, input: DoctorValues) => http.put<Doctor>(`buckets/${id}/doctors/${itemId}`, input),
  deleteDoctor: (id: number, itemId: number) => http.delete(`buckets/${id}/doctors/${itemId}`),

  extensions: (id: number, options?: RequestOptions) => http.get<BucketExtension[]>(`buckets/${id}/extensions`, options),
  createExtension: (id: number, input: ExtensionValues) => http.post<BucketExtension>(`buckets/${id}/extensions`, input),
  updateExtension: (id: number, itemId: number, input: ExtensionValues) => http.put<BucketExtension>(`buckets/${id}/extensions/${itemId}`, input),
  deleteExtension: (id: number, itemId: number) => http.delete(`buckets/${id}/extensions/${itemId}`),

  packages: (id: number, options?: RequestOptions) => http.get<ExtensionPackage[]>(`buckets/${id}/extension-packages`, options),
  createPackage: (id: number, input: PackageInput) => http.post<ExtensionPackage>(`buckets/${id}/extension-packages`, input),
  updatePackage: (id: number, itemId: number, input: PackageInput) => http.put<ExtensionPackage>(`buckets/${id}/extension-packages/${itemId}`, input),
  deletePackage: (id: number, itemId: number) => http.delete(`buckets/${id}/extension-packages/${itemId}`),

  uploadToken: (id: number, options?: RequestOptions) => http.get<UploadToken>(`buckets/${id}/upload-token`, options),
  regenerateUploadToken: (id: number) => http.post<UploadToken>(`buckets/${id}/upload-token/regenerate`),
};

/** The address of the signed-in upload page that files an upload under the organisation of `token` (/upload?token=). */
export function uploadAddress(origin: string, token: string): string {
  return `${origin}/upload?token=${encodeURIComponent(token)}`;
}
