// keep.js: the games played offline, kept in this browser's IndexedDB until the server has them.  Each is
// the record the offline engine gives (web/offline.py, Kept.record): the same fields as the records export,
// with the game's id.  The worker writes them after every answered action; the page reads them to send to
// the server (sync.js) and forgets the ones the server took.

const NAME = "pyramid-solitaire";
const STORE = "offline-games";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const result = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

export const kept = {
  all: () => run("readonly", (store) => store.getAll()),
  put: (record) => run("readwrite", (store) => store.put(record)),
  // The server took these (or refused them for good): they are no longer this browser's to keep.
  forget: (ids) => run("readwrite", (store) => { for (const id of ids) store.delete(id); }),
};
