// ISO 4217 alphabetic currency codes (List One, the active codes), embedded so
// the payee can hold a harness asset of type fiat to spec 2.3 ("ISO 4217 code
// for fiat"). Left out on purpose, although some lists still carry them: codes
// withdrawn or being withdrawn (ANG, BGN, CUC, HRK, SLL, ZWL) and XXX ("no
// currency"). A code left out only means a harness request is refused with
// 400, which the profile always allows; a code kept in that is not active
// would yield a non-conformant CPR. 176 codes.

const CODES =
  'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BOV BRL BSD ' +
  'BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK ' +
  'DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF ' +
  'IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP ' +
  'LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD ' +
  'NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD ' +
  'SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD ' +
  'TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB ' +
  'XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA YER ZAR ZMW ZWG';

export const ISO_4217 = new Set(CODES.split(' '));

/** True for an active ISO 4217 alphabetic code (exact, upper case). */
export const isIso4217 = (code) => typeof code === 'string' && ISO_4217.has(code);
