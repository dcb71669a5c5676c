/**
 * Harkness for Google Sheets: the script a TD binds to a tournament spreadsheet.
 *
 * It adds a "Harkness" menu ("Recompute standings and awards", "Pair next round", …) and, when the TD
 * asks for it, an installable on-edit trigger. All call the Harkness worker's endpoint
 * (`harkness-sheets serve`), which reads the spreadsheet with its service account, ranks it and
 * writes the Standings, Breakdown and Errors tabs (and Awards, from a Prizes tab), or pairs the
 * next round by the FIDE Dutch system into a "Pairings Rd N" tab. This script never computes
 * anything itself.
 *
 * Configuration: one Script Property (Extensions → Apps Script → Project settings → Script
 * properties), never in this code:
 *   HARKNESS_ENDPOINT  the worker's address, https only, e.g. https://harkness.example.org
 *
 * The sheet's keys. "Harkness → Connect this sheet" (each editor, once) makes a random key
 * that opens this spreadsheet alone, keeps it in that editor's own User Properties (which
 * no one else reads, and no copy of the sheet carries; nobody types, pastes or sees it),
 * writes its SHA-256 into the spreadsheet's developer metadata (which only an editor can
 * write: that is how the worker knows an editor connected it), and sends it to the worker's
 * /connect. Every call then carries the key. "Connect this sheet" again renews the editor's
 * key (the old one is refused at once); "Disconnect this sheet" withdraws every editor's
 * key (to take the sheet back; each editor then connects again). If the worker has
 * forgotten the keys (a restart without a database), the script connects again by itself
 * and repeats the call.
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
var KEY_METADATA_KEY = 'harkness.addonKey';
var KEY_PROPERTY = 'HARKNESS_KEY';
var KEY_HEADER = 'X-Harkness-Key';

/** Adds the Harkness menu when the spreadsheet opens (simple trigger). */
function onOpen(e) {
  SpreadsheetApp.getUi()
    .createMenu(MENU_TITLE)
    .addItem('Recompute standings and awards', 'recomputeStandings')
    .addItem('Pair next round', 'pairNextRound')
    .addItem('Recompute automatically after each edit', 'installEditTrigger')
    .addItem('Stop recomputing automatically', 'removeEditTrigger')
    .addSeparator()
    .addItem('Connect this sheet (or renew my key)', 'connectSheet')
    .addItem('Disconnect this sheet (every editor\'s key)', 'disconnectSheet')
    .addToUi();
}

/** Editor add-on installation: show the menu at once. */
function onInstall(e) {
  onOpen(e);
}

var NOT_SET_UP = 'Harkness is not set up: add HARKNESS_ENDPOINT (https://…) to the Script ' +
  'properties (Extensions → Apps Script → Project settings).';
var NOT_HTTPS = 'HARKNESS_ENDPOINT must be an https:// address: the sheet\'s key is never sent ' +
  'over plain http.';
var NOT_CONNECTED = 'You have not connected this sheet to Harkness yet: choose ' +
  'Harkness → Connect this sheet (each editor does, once).';

/**
 * The worker's base URL from the Script Properties: {url} (without a trailing /sync, which
 * older setups wrote), or {problem} when it is missing or not https.
 */
function workerUrl_() {
  var endpoint = PropertiesService.getScriptProperties().getProperty('HARKNESS_ENDPOINT');
  if (!endpoint) {
    return { problem: NOT_SET_UP };
  }
  endpoint = String(endpoint).trim();
  if (!/^https:\/\/[^\/\s]+/i.test(endpoint)) {
    return { problem: NOT_HTTPS };
  }
  return { url: endpoint.replace(/\/+$/, '').replace(/\/sync$/, '') };
}

/** This editor's key for this sheet, in their own User Properties (null before they connect). */
function sheetKey_() {
  return PropertiesService.getUserProperties().getProperty(KEY_PROPERTY);
}

/** A new random key: 64 hex digits from two UUIDs (Java's SecureRandom: 244 random bits). */
function newKey_() {
  return (Utilities.getUuid() + Utilities.getUuid()).replace(/-/g, '');
}

/** The key's SHA-256, as the worker compares it: "sha256:" and 64 hex digits. */
function keyHash_(key) {
  var digest = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, key,
    Utilities.Charset.UTF_8);
  return 'sha256:' + digest.map(function (b) {
    return ((b + 256) % 256).toString(16).padStart(2, '0');
  }).join('');
}

/** The spreadsheet's key-hash metadata entries (all editors', or those of one hash). */
function keyMetadata_(spreadsheet, hash) {
  return spreadsheet.getDeveloperMetadata().filter(function (metadata) {
    return metadata.getKey() === KEY_METADATA_KEY && (!hash || metadata.getValue() === hash);
  });
}

/** Puts the new key's hash in the sheet in place of the old one's (an edit: only an editor can). */
function vouchFor_(spreadsheet, key, old) {
  spreadsheet.addDeveloperMetadata(KEY_METADATA_KEY, keyHash_(key),
    SpreadsheetApp.DeveloperMetadataVisibility.DOCUMENT);
  if (old) {
    keyMetadata_(spreadsheet, keyHash_(old)).forEach(function (metadata) { metadata.remove(); });
  }
}

/** Posts a JSON payload to the worker with the sheet's key; answers the HTTP response. */
function post_(url, key, payload) {
  var headers = {};
  headers[KEY_HEADER] = key;
  return UrlFetchApp.fetch(url, {
    method: 'post',
    contentType: 'application/json',
    payload: JSON.stringify(payload),
    headers: headers,
    muteHttpExceptions: true,
    followRedirects: false
  });
}

/** The worker's JSON answer, or {} when it sent none this script can read. */
function answer_(response) {
  try {
    var answer = JSON.parse(response.getContentText());
    return answer && typeof answer === 'object' ? answer : {};
  } catch (error) {
    return {};
  }
}

/**
 * What to tell the TD when the worker refuses a request or fails: when it is busy (429, 503)
 * and says why (its budget for Google, another process writing the sheet), its own words.
 */
function refusalOf_(response) {
  var code = response.getResponseCode();
  if (code === 429 || code === 503) {
    var answer = answer_(response);
    var said = typeof answer.message === 'string' ? answer.message : answer.error;
    if (typeof said === 'string') {
      return 'The Harkness worker is busy: ' + said + '.';
    }
  }
  return refusal_(code);
}

/** What to tell the TD when the worker refuses a request with this status. */
function refusal_(code) {
  if (code === 401) {
    return 'The Harkness worker refused this sheet\'s key: an editor connects it again ' +
      '(Harkness → Connect this sheet).';
  }
  if (code === 403) {
    return 'The Harkness worker does not serve this spreadsheet: ask its administrator to add it.';
  }
  if (code === 429) {
    return 'The Harkness worker is busy with other requests: try again in a minute.';
  }
  return 'The Harkness worker answered ' + code + ': try again later.';
}

/**
 * Calls a route of the worker for this spreadsheet with its key: {response} or {problem}.
 * When the worker no longer knows the key ("connect": true), connects again with it (the
 * sheet still holds its hash) and repeats the call once.
 */
function call_(spreadsheet, route, payload) {
  var worker = workerUrl_();
  if (worker.problem) {
    return { problem: worker.problem };
  }
  var key = sheetKey_();
  if (!key) {
    return { problem: NOT_CONNECTED };
  }
  var body = { spreadsheetId: spreadsheet.getId() };
  Object.keys(payload || {}).forEach(function (name) { body[name] = payload[name]; });
  var response = post_(worker.url + route, key, body);
  if (response.getResponseCode() === 401 && answer_(response).connect === true) {
    var again = post_(worker.url + '/connect', key, { spreadsheetId: spreadsheet.getId() });
    if (again.getResponseCode() !== 200) {
      return { problem: refusalOf_(again) };
    }
    response = post_(worker.url + route, key, body);
  }
  return { response: response };
}

/**
 * Asks the worker to sync a spreadsheet. Returns {ok, message}; never throws for an answer
 * the worker gives, only when it cannot be reached at all.
 */
function requestSync_(spreadsheet, reason) {
  var called = call_(spreadsheet, '/sync', { reason: reason });
  if (called.problem) {
    return { ok: false, message: called.problem };
  }
  var code = called.response.getResponseCode();
  if (code === 202) {
    return { ok: true, message: 'The standings will be recomputed in a few seconds.' };
  }
  return { ok: false, message: refusalOf_(called.response) };
}

/** Runs a menu action, tells the TD what happened, and answers {ok, message}. */
function menu_(action, seconds) {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  var result;
  try {
    result = action(spreadsheet);
  } catch (error) {
    result = { ok: false, message: 'Could not reach the Harkness worker: ' + error.message };
  }
  spreadsheet.toast(result.message, MENU_TITLE, seconds);
  return result;
}

/** Menu item: ask for a sync now and say what happened. */
function recomputeStandings() {
  return menu_(function (spreadsheet) { return requestSync_(spreadsheet, 'menu'); }, 5);
}

/**
 * Asks the worker to pair the next round. Returns {ok, message}; never throws for an answer
 * the worker gives, only when it cannot be reached at all.
 */
function requestPair_(spreadsheet) {
  var called = call_(spreadsheet, '/pair', {});
  if (called.problem) {
    return { ok: false, message: called.problem };
  }
  var code = called.response.getResponseCode();
  if (code === 200) {
    var answer = answer_(called.response);
    if (typeof answer.message !== 'string') {
      return { ok: false, message: 'The Harkness worker gave an answer this script cannot read.' };
    }
    return { ok: answer.paired === true, message: answer.message };
  }
  if (code === 501) {
    return { ok: false, message: 'This Harkness worker does not pair rounds: ask its ' +
      'administrator to install harkness[pairing].' };
  }
  return { ok: false, message: refusalOf_(called.response) };
}

/** Menu item: pair the next round into a "Pairings Rd N" tab and say what happened. */
function pairNextRound() {
  return menu_(requestPair_, 10);
}

/**
 * Menu item: connect this sheet to the worker with a new key of this editor's (renewing
 * theirs if they had one): the key's hash goes into the sheet, the key into their User
 * Properties, and the worker checks the one against the other.
 */
function connectSheet() {
  return menu_(function (spreadsheet) {
    var worker = workerUrl_();
    if (worker.problem) {
      return { ok: false, message: worker.problem };
    }
    var key = newKey_();
    try {
      vouchFor_(spreadsheet, key, sheetKey_());
    } catch (error) {
      return { ok: false, message: 'Only an editor of this spreadsheet can connect it (' +
        error.message + ').' };
    }
    PropertiesService.getUserProperties().setProperty(KEY_PROPERTY, key);
    var response = post_(worker.url + '/connect', key, { spreadsheetId: spreadsheet.getId() });
    var code = response.getResponseCode();
    if (code === 200) {
      return { ok: true, message: 'This sheet is connected to Harkness (with a new key).' };
    }
    if (code === 429 || code === 503) {
      return { ok: false, message: refusalOf_(response) };
    }
    var said = answer_(response).error;
    return { ok: false, message: typeof said === 'string' ? 'Not connected: ' + said : refusal_(code) };
  }, 10);
}

/**
 * Menu item: withdraw every editor's key to this sheet, from the worker and the sheet (to
 * take the sheet back when a key may have leaked; each editor then connects again).
 */
function disconnectSheet() {
  return menu_(function (spreadsheet) {
    var worker = workerUrl_();
    var key = sheetKey_();
    if (key && !worker.problem) {
      post_(worker.url + '/disconnect', key, { spreadsheetId: spreadsheet.getId() });
    }
    try {
      keyMetadata_(spreadsheet).forEach(function (metadata) { metadata.remove(); });
    } catch (error) {
      return { ok: false, message: 'Only an editor of this spreadsheet can disconnect it (' +
        error.message + ').' };
    }
    PropertiesService.getUserProperties().deleteProperty(KEY_PROPERTY);
    return { ok: true, message: 'This sheet is disconnected: no key opens it any more. ' +
      'Each editor connects it again with Harkness → Connect this sheet.' };
  }, 10);
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
  spreadsheet.toast('Automatic recomputing is off; use Harkness → Recompute standings and awards.',
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
