export const PROBES = {};
