/**
 * The qr group: PNG images of QR codes with the payload each carries (profile 2: the URI as the
 * payload, byte mode, error correction M or better), images that break the profile, and a URI too
 * long for one symbol.
 */
import { SEPA_CT } from './bases.js';

export interface QrSpec {
  id: string;
  comment: string;
  req: string[];
  flags?: string[];
  kind: 'read' | 'render';
  payload: string;
  ec: 'L' | 'M' | 'Q' | 'H';
  scale?: number;
  margin?: number;
  /** Segments other than one byte segment (a symbol that is not all byte mode). */
  segments?: Array<{ data: string; mode: 'byte' | 'numeric' | 'alphanumeric' }>;
  /** Whether a payee's image conforms to profile 2. */
  conforms: boolean;
  /** The requirement a non-conforming image or render breaks. */
  breaks?: string;
  /** An image that holds no QR code at all (a blank PNG of this many pixels a side). */
  blank?: number;
}

const TOKEN = 'mfrggzdfmztwq2lknnwg23tpobyxe43u';
const HEX = '01234567890123456789012345678901';
const ENDPOINT = encodeURIComponent('https://pay.example.com');
const REF_URI = `cpr://${TOKEN}?endpoint=${ENDPOINT}`;

/** Every QR spec. */
export function qrSpecs(): QrSpec[] {
  const inline = `cpr://inline/${Buffer.from(JSON.stringify(SEPA_CT), 'utf8').toString('base64url')}`;
  return [
    {
      id: 'reference-m',
      comment: 'a reference URI, byte mode, error correction M',
      req: ['CPR-4.3-QR-CODE', 'PRF-2-QR-ENCODING', 'CPR-4.2-SAME-SCHEME'],
      kind: 'read',
      payload: REF_URI,
      ec: 'M',
      scale: 2,
      margin: 4,
      conforms: true,
    },
    {
      id: 'reference-q',
      comment: 'a reference URI, byte mode, error correction Q',
      req: ['PRF-2-QR-ENCODING'],
      kind: 'read',
      payload: REF_URI,
      ec: 'Q',
      scale: 2,
      margin: 4,
      conforms: true,
    },
    {
      id: 'reference-h',
      comment: 'a reference URI, byte mode, error correction H',
      req: ['PRF-2-QR-ENCODING'],
      kind: 'read',
      payload: REF_URI,
      ec: 'H',
      scale: 2,
      margin: 4,
      conforms: true,
    },
    {
      id: 'inline-m',
      comment: 'an inline SEPA_CT URI, byte mode, error correction M',
      req: ['CPR-4.3-QR-CODE', 'PRF-2-QR-CAPACITY'],
      kind: 'read',
      payload: inline,
      ec: 'M',
      scale: 2,
      margin: 4,
      conforms: true,
    },
    {
      id: 'reference-l',
      comment: 'error correction L: below the profile minimum M (a decoder reports the level)',
      req: ['PRF-2-QR-ENCODING'],
      kind: 'read',
      payload: REF_URI,
      ec: 'L',
      scale: 2,
      margin: 4,
      conforms: false,
      breaks: 'PRF-2-QR-ENCODING',
    },
    {
      id: 'reference-numeric-segment',
      comment: 'a hex token of digits encoded as a numeric segment between byte segments: not all byte mode',
      req: ['PRF-2-QR-ENCODING'],
      kind: 'read',
      payload: `cpr://${HEX}?endpoint=${ENDPOINT}`,
      ec: 'M',
      scale: 2,
      margin: 4,
      segments: [
        { data: 'cpr://', mode: 'byte' },
        { data: HEX, mode: 'numeric' },
        { data: `?endpoint=${ENDPOINT}`, mode: 'byte' },
      ],
      conforms: false,
      breaks: 'PRF-2-QR-ENCODING',
    },
    {
      id: 'blank-image',
      comment: 'a PNG that holds no QR code: nothing to read',
      req: ['CPR-4.3-QR-CODE'],
      kind: 'read',
      payload: '',
      ec: 'M',
      blank: 64,
      conforms: false,
      breaks: 'CPR-4.3-QR-CODE',
    },
    {
      id: 'render-too-long-m',
      comment: 'an inline URI of 2,400 bytes: more than one symbol holds at M (2,331 bytes)',
      req: ['PRF-2-QR-CAPACITY'],
      kind: 'render',
      payload: `cpr://inline/${'A'.repeat(2400 - 13)}`,
      ec: 'M',
      conforms: false,
      breaks: 'PRF-2-QR-CAPACITY',
    },
    {
      id: 'render-fits-m',
      comment: 'a URI of exactly 2,331 bytes: the largest one symbol holds at M',
      req: ['PRF-2-QR-CAPACITY'],
      kind: 'render',
      payload: `cpr://inline/${'A'.repeat(2331 - 13)}`,
      ec: 'M',
      conforms: true,
    },
    {
      id: 'render-too-long-h',
      comment: 'a URI of 1,274 bytes at error correction H (1,273 bytes)',
      req: ['PRF-2-QR-CAPACITY'],
      kind: 'render',
      payload: `cpr://inline/${'A'.repeat(1274 - 13)}`,
      ec: 'H',
      conforms: false,
      breaks: 'PRF-2-QR-CAPACITY',
    },
  ];
}
