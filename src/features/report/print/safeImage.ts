/**
 * Template logos, stamps and signatures are addresses configured by administrators. Only ones that can only
 * ever be an image load into the print sheet: http(s), a path on this site, or an inline PNG, JPEG, GIF or WebP.
 * Anything else (javascript:, an SVG that could carry script, another scheme) is refused as a template that
 * cannot be downloaded.
 */
export function safeImageUrl(url: string | null | undefined): string | null | 'refused' {
  if (!url) return null;
  const value = url.trim();
  if (/^https?:\/\//i.test(value)) return value;
  if (value.startsWith('/') && !value.startsWith('//')) return value;
  if (/^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i.test(value)) return value;
  return 'refused';
}
