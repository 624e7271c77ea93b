"""The provider's JWKS fetched over HTTP and kept in memory, for the Authlib and joserfc backends: neither
library fetches a key set itself (PyJWT has PyJWKClient; these two only import a set you hand them).

`current()` is the cached set: fetched on first use and reread once it is MAX_AGE old. `refreshed()` refetches
it for a token whose kid the cached set lacks. Either fetches at most once every MIN_REFRESH seconds once a set
is held. A failed fetch (an error status, a timeout, HTML, cut-off JSON, an empty set) keeps the last good set,
so a provider outage neither empties the cache nor lets every unknown kid hammer the provider; with no set at
all it raises, and the request is refused. The network is used outside the lock, so a slow provider does not
hold up requests the cached set can answer."""

import json
import threading
import time
import urllib.request

MIN_REFRESH = 5  # seconds between two fetches once a set is held
MAX_AGE = 3600  # seconds a fetched set is used before it is reread
TIMEOUT = 5  # seconds for one fetch


class RemoteKeySet:
    def __init__(self, url, import_key_set):
        self.url = url
        self.import_key_set = import_key_set  # the library's importer, e.g. KeySet.import_key_set
        self.keys = None
        self.fetched_at = self.tried_at = float("-inf")
        self.lock = threading.Lock()

    def current(self):
        return self.fetch_if(lambda now: now - self.fetched_at >= MAX_AGE)

    def refreshed(self):
        return self.fetch_if(lambda now: True)

    def fetch_if(self, wanted):
        """The set, fetched first when there is none, or when `wanted(now)` and MIN_REFRESH has passed."""
        with self.lock:
            now = time.monotonic()
            if self.keys is not None and not (wanted(now) and now - self.tried_at >= MIN_REFRESH):
                return self.keys
            self.tried_at = now
        try:
            with urllib.request.urlopen(self.url, timeout=TIMEOUT) as answer:
                keys = self.import_key_set(json.load(answer))
            if not keys.keys:
                raise ValueError("the provider's key set is empty")
        except Exception:
            if self.keys is None:
                raise
            return self.keys  # keep the last good set
        with self.lock:
            self.keys, self.fetched_at = keys, now
        return keys
