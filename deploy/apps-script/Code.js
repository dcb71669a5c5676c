/**
 * Harkness for Google Sheets: the script a TD binds to a tournament spreadsheet.
 *
 * It adds a "Harkness" menu ("Recompute standings", "Pair next round") and, when the TD asks
 * for it, an installable on-edit trigger. All call the Harkness worker's endpoint
 * (`harkness-sheets serve`), which reads the spreadsheet with its service account, ranks it and
 * writes the Standings, Breakdown and Errors tabs, or pairs the next round by the FIDE Dutch
 * system into a "Pairings Rd N" tab. This script never computes anything itself.
 *
 * Configuration lives in the Script Properties (Extensions → Apps Script → Project settings →
 * Script properties), never in this code:
 *   HARKNESS_ENDPOINT  the worker's URL, e.g. https://harkness.example.org/sync (pairing
 *                      asks /pair beside it)
 *   HARKNESS_SECRET    the worker's HARKNESS_SHEETS_WEBHOOK_SECRET
 *
 * Edits come one cell at a time. The worker waits until a sheet has been quiet for a few
 * seconds before it syncs (it debounces), so this script may skip calls made within
 * THROTTLE_SECONDS of the last one: that sync has not read the sheet yet and will see the edit.
 * THROTTLE_SECONDS must stay below the worker's debounce (5 s by default).
 */

var MENU_TITLE = 'Harkness';
var EDIT_HANDLER = 'harknessOnEdit';
var THROTTLE_SECONDS = 2;
var THROTTLE_KEY = 'harkness-sync-requested';
var TAB_METADATA_KEY = 'harkness.tab';
var SECRET_HEADER = 'X-Harkness-Secret';

/** Adds the Harkness menu when the spreadsheet opens (simple trigger). */
function onOpen(e) {
  SpreadsheetApp.getUi()
    .createMenu(MENU_TITLE)
    .addItem('Recompute standings', 'recomputeStandings')
    .addItem('Pair next round', 'pairNextRound')
    .addItem('Recompute automatically after each edit', 'installEditTrigger')
    .addItem('Stop recomputing automatically', 'removeEditTrigger')
    .addToUi();
}

/** Editor add-on installation: show the menu at once. */
function onInstall(e) {
  onOpen(e);
}

/** The worker's endpoint and secret from the Script Properties, or null if either is missing. */
function workerSettings_() {
  var properties = PropertiesService.getScriptProperties();
  var endpoint = properties.getProperty('HARKNESS_ENDPOINT');
  var secret = properties.getProperty('HARKNESS_SECRET');
  if (!endpoint || !secret) {
    return null;
  }
  return { endpoint: endpoint, secret: secret };
}

var NOT_SET_UP = 'Harkness is not set up: add HARKNESS_ENDPOINT and HARKNESS_SECRET to the ' +
  'Script properties (Extensions → Apps Script → Project settings).';

/** Posts a JSON payload to the worker with the shared secret; answers the HTTP response. */
function post_(url, secret, payload) {
  var headers = {};
  headers[SECRET_HEADER] = secret;
  return UrlFetchApp.fetch(url, {
    method: 'post',
    contentType: 'application/json',
    payload: JSON.stringify(payload),
    headers: headers,
    muteHttpExceptions: true,
    followRedirects: false
  });
}

/** What to tell the TD when the worker refuses a request or fails. */
function refusal_(code) {
  if (code === 401) {
    return 'The Harkness worker refused the secret: check HARKNESS_SECRET.';
  }
  if (code === 403) {
    return 'The Harkness worker does not serve this spreadsheet: ask its administrator to add it.';
  }
  return 'The Harkness worker answered ' + code + ': try again later.';
}

/**
 * Asks the worker to sync a spreadsheet. Returns {ok, message}; never throws for an answer
 * the worker gives, only when it cannot be reached at all.
 */
function requestSync_(spreadsheet, reason) {
  var settings = workerSettings_();
  if (!settings) {
    return { ok: false, message: NOT_SET_UP };
  }
  var response = post_(settings.endpoint, settings.secret,
    { spreadsheetId: spreadsheet.getId(), reason: reason });
  var code = response.getResponseCode();
  if (code === 202) {
    return { ok: true, message: 'The standings will be recomputed in a few seconds.' };
  }
  return { ok: false, message: refusal_(code) };
}

/** Menu item: ask for a sync now and say what happened. */
function recomputeStandings() {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  var result;
  try {
    result = requestSync_(spreadsheet, 'menu');
  } catch (error) {
    result = { ok: false, message: 'Could not reach the Harkness worker: ' + error.message };
  }
  spreadsheet.toast(result.message, MENU_TITLE, 5);
  return result;
}

/** The worker's URL for pairing: HARKNESS_ENDPOINT ends in /sync, and /pair is beside it. */
function pairUrl_(endpoint) {
  return endpoint.replace(/\/+$/, '').replace(/\/sync$/, '') + '/pair';
}

/**
 * Asks the worker to pair the next round. Returns {ok, message}; never throws for an answer
 * the worker gives, only when it cannot be reached at all.
 */
function requestPair_(spreadsheet) {
  var settings = workerSettings_();
  if (!settings) {
    return { ok: false, message: NOT_SET_UP };
  }
  var response = post_(pairUrl_(settings.endpoint), settings.secret,
    { spreadsheetId: spreadsheet.getId() });
  var code = response.getResponseCode();
  if (code === 200) {
    try {
      var answer = JSON.parse(response.getContentText());
      return { ok: answer.paired === true, message: String(answer.message) };
    } catch (error) {
      return { ok: false, message: 'The Harkness worker gave an answer this script cannot read.' };
    }
  }
  if (code === 501) {
    return { ok: false, message: 'This Harkness worker does not pair rounds: ask its ' +
      'administrator to install harkness[pairing].' };
  }
  return { ok: false, message: refusal_(code) };
}

/** Menu item: pair the next round into a "Pairings Rd N" tab and say what happened. */
function pairNextRound() {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  var result;
  try {
    result = requestPair_(spreadsheet);
  } catch (error) {
    result = { ok: false, message: 'Could not reach the Harkness worker: ' + error.message };
  }
  spreadsheet.toast(result.message, MENU_TITLE, 10);
  return result;
}

/** The installable on-edit triggers of this project for this spreadsheet. */
function editTriggers_(spreadsheet) {
  return ScriptApp.getProjectTriggers().filter(function (trigger) {
    return trigger.getHandlerFunction() === EDIT_HANDLER &&
      trigger.getTriggerSourceId() === spreadsheet.getId();
  });
}

/**
 * Menu item: install the on-edit trigger (once). An installable trigger, not a simple
 * onEdit, because only an installable trigger may call an outside URL.
 */
function installEditTrigger() {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  if (editTriggers_(spreadsheet).length === 0) {
    ScriptApp.newTrigger(EDIT_HANDLER).forSpreadsheet(spreadsheet).onEdit().create();
  }
  spreadsheet.toast('The standings will be recomputed after each edit.', MENU_TITLE, 5);
}

/** Menu item: remove the on-edit trigger. */
function removeEditTrigger() {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  editTriggers_(spreadsheet).forEach(function (trigger) {
    ScriptApp.deleteTrigger(trigger);
  });
  spreadsheet.toast('Automatic recomputing is off; use Harkness → Recompute standings.',
    MENU_TITLE, 5);
}

/** True for the tabs the worker writes (marked with its developer metadata). */
function isWorkerTab_(sheet) {
  return sheet.getDeveloperMetadata().some(function (metadata) {
    return metadata.getKey() === TAB_METADATA_KEY;
  });
}

/** The installable on-edit trigger: ask for a sync after a TD's edit. */
function harknessOnEdit(e) {
  if (!e || !e.range) {
    return;
  }
  if (isWorkerTab_(e.range.getSheet())) {
    return; // the worker's own tabs are rewritten at each sync: nothing to recompute
  }
  var cache = CacheService.getDocumentCache();
  if (cache.get(THROTTLE_KEY)) {
    return; // a sync was asked for moments ago and has not read the sheet yet
  }
  cache.put(THROTTLE_KEY, '1', THROTTLE_SECONDS);
  try {
    var result = requestSync_(e.source, 'edit');
    if (!result.ok) {
      console.warn('Harkness: ' + result.message);
    }
  } catch (error) {
    console.warn('Harkness: could not reach the worker: ' + error.message);
  }
}
