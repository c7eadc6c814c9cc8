import { type Locale, type MessageKey, type MessageParams, translate } from '../../domain/messages/index.ts'

/** The parts of a mail, in the recipient's language; rendered once as plain text and as HTML. */
export interface MailContent {
  locale: Locale
  subject: MessageKey
  subjectParams?: MessageParams
  /** Paragraphs before the highlighted part. */
  intro: Array<[MessageKey, MessageParams?]>
  /**
   * Values someone else chose (a team's name), shown as labelled data after the intro, never as
   * the mail's own words; each is cut to DETAIL_MAX characters on one line.
   */
  details?: Array<[MessageKey, string]>
  /** A one-time code shown large (sign-in code). */
  code?: string
  /** A button with its link (reset, invitation). */
  action?: { label: MessageKey; url: string }
  /** Paragraphs after it (validity, "ignore this if it was not you"). */
  outro?: Array<[MessageKey, MessageParams?]>
  /** A line in the footer, after the sender ("not expecting this? ignore it"). */
  footerNote?: MessageKey
  appUrl: string
}

export const DETAIL_MAX = 60

/** An address on its own (an inviter's): left as it is, so that it can be written to. */
const lonelyAddress = /^[^\s@]+@[^\s@]+$/

/**
 * Others' words as plain text that no mail client turns into a link: every '.' becomes a one-dot
 * leader (U+2024) and every '/' a division slash (U+2215), which read the same but match no URL,
 * `www.` or domain pattern, so "Visit evil.example/login" cannot become a link in our mail.
 */
export function unlinkable(value: string): string {
  if (lonelyAddress.test(value)) return value
  return value.replaceAll('.', '\u2024').replaceAll('/', '\u2215')
}

/**
 * A value for `details`: control characters (line breaks) as spaces, at most DETAIL_MAX
 * characters, no links (`unlinkable`).
 */
export function detailValue(value: string): string {
  const line = [...value.replace(/\p{Cc}+/gu, ' ').trim()]
  return unlinkable(line.length > DETAIL_MAX ? `${line.slice(0, DETAIL_MAX - 1).join('')}…` : line.join(''))
}

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/**
 * Renders a multipart mail (text + HTML) from catalog keys. Every interpolated value is escaped in
 * the HTML part; links are only ever built by the server from APP_URL.
 */
export function renderMail(content: MailContent): RenderedMail {
  const t = (key: MessageKey, params?: MessageParams) => translate(content.locale, key, params)
  const intro = content.intro.map(([key, params]) => t(key, params))
  const outro = (content.outro ?? []).map(([key, params]) => t(key, params))
  const details = (content.details ?? []).map(([label, value]) => [t(label), detailValue(value)] as const)
  const footer = [
    t('mail.footer', { appUrl: content.appUrl }),
    ...(content.footerNote ? [t(content.footerNote)] : []),
  ]
  const subject = t(content.subject, content.subjectParams)

  const text = [
    t('mail.greeting'),
    ...intro,
    ...(details.length > 0 ? [details.map(([label, value]) => `${label}: "${value}"`).join('\n')] : []),
    ...(content.code ? [content.code] : []),
    ...(content.action ? [`${t(content.action.label)}: ${content.action.url}`] : []),
    ...outro,
    '--',
    ...footer,
  ].join('\n\n')

  const paragraph = (value: string) => `<p style="margin:0 0 16px">${escapeHtml(value)}</p>`
  const code = content.code
    ? `<p style="margin:0 0 16px;font-size:32px;font-weight:700;letter-spacing:8px;font-family:ui-monospace,Menlo,Consolas,monospace">${escapeHtml(content.code)}</p>`
    : ''
  const action = content.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:600">${escapeHtml(t(content.action.label))}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#555">${escapeHtml(t('mail.linkFallback'))}<br><a href="${escapeHtml(content.action.url)}" style="color:#4f46e5;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : ''
  const detailRows = details
    .map(
      ([label, value]) =>
        `<tr><th scope="row" style="text-align:left;padding:6px 12px;color:#555;font-weight:400;white-space:nowrap;vertical-align:top">${escapeHtml(label)}</th><td style="padding:6px 12px 6px 0;font-weight:600;word-break:break-word">${escapeHtml(value)}</td></tr>`,
    )
    .join('')
  const detailTable = detailRows
    ? `<table role="presentation" style="margin:0 0 16px;border-collapse:collapse;background:#f5f5f7;width:100%">${detailRows}</table>`
    : ''
  const html = `<!doctype html>
<html lang="${content.locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#111;font-size:15px;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:10px;padding:28px">
<p style="margin:0 0 20px;font-weight:700;font-size:18px">Promptfolio</p>
${paragraph(t('mail.greeting'))}${intro.map(paragraph).join('')}${detailTable}${code}${action}${outro.map(paragraph).join('')}
${footer.map((line) => `<p style="margin:16px 0 0;font-size:12px;color:#777">${escapeHtml(line)}</p>`).join('')}
</div></body></html>`
  return { subject, text, html }
}
