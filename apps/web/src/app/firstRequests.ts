/**
 * The first request of each list screen opened at its bare address (lower-case path, no query):
 * the boot script (vite.boot.ts) starts it as the HTML is read, before the app's code has arrived,
 * and `apiFetch` adopts its answer when the list asks for the same address (lib/api.ts). Plain text,
 * as the engine would ask: firstRequests.test.ts runs every list screen's `prefetch` and compares, so
 * a changed declaration (page size, a default filter) fails there rather than asking twice. A list
 * whose first request depends on the day (a default period) would not belong here.
 */
export const FIRST_REQUESTS: Readonly<Record<string, string>> = {
  '/userstable': '/api/users?page=1&limit=20',
  '/api1': '/api/getCoverage?page=1&limit=30',
  '/api2':
    '/api/CommandAPI?page=1&limit=1000&make=Honda&function_type=scan&full_scan=true&module=%5B%22Engine%22%2C%22ABS%22%5D',
  '/obdscanreport': '/api/ScanDetail?page=1&limit=30',
  '/specilafunction': '/api/SpecialFunctions?page=1&limit=30',
  '/actuationsdetail': '/api/ActuationsDetail?page=1&limit=30',
  '/customcommands1': '/api/CustomCommands?page=1&limit=100',
  '/actuationfetcher': '/api/ActuationCommands?page=1&limit=200',
  '/commandfetcher': '/api/SPFCommands?page=1&limit=200',
  '/modellistpage': '/api/ModelList?make=Mahindra',
  '/bikemakelist': '/api/FetchMakeList?segement=bike',
  '/odometerdetails': '/api/OdometerAPI?page=1&limit=30',
  '/livedatacommands': '/api/LiveDataCommands?page=1&limit=30',
  '/faultcodesymptoms': '/api/FaultCodeSymptoms?page=1&limit=30',
  '/faultcodesolutions': '/api/FaultCodeSolutions?page=1&limit=30',
  '/faultcodecauses': '/api/FaultCodeCauses?page=1&limit=30',
  '/faultcodelist': '/api/faultCodesList?page=1&limit=30',
  '/importhistory': '/api/imports?page=1&limit=20',
};

/** Where the boot script leaves the request it started: `window[FIRST_REQUEST_GLOBAL]`. */
export const FIRST_REQUEST_GLOBAL = '__obdFirstRequest';
