/*
 * The result callback's contract (limited_login_native.h): once LLFBSetResultCallback has returned, the
 * callback it replaced is never called again, so its context may be freed at once, as a Unity domain reload
 * frees it. Races unregistering against logins that finish on the library's threads, freeing each context
 * as soon as the call returns; under AddressSanitizer a late call is a heap-use-after-free and fails the run.
 * Also: the callback may unregister itself from inside the call without a deadlock. Built and run by
 * scripts/unity. Exits 0 when every check held.
 */
#include "limited_login_native.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { logins = 64, magic = 0x5eed };

struct context {
    int magic;
    int calls;
};

static atomic_int calls_in_all = 0;

/* Reads the context, waits a little (so that a late unregistering overlaps the call), reads it again. */
static void on_result(int32_t request_id, const char *result_json, void *raw) {
    (void)request_id;
    (void)result_json;
    struct context *context = raw;
    if (context->magic != magic) {
        printf("FAIL a callback got a context that is not one of the test's\n");
        exit(1);
    }
    usleep(300);
    context->calls++;
    atomic_fetch_add(&calls_in_all, 1);
}

static atomic_int self_unregistered = 0;

/* Unregisters itself from inside the call: must not wait for its own call to end. */
static void unregistering(int32_t request_id, const char *result_json, void *context) {
    (void)request_id;
    (void)result_json;
    (void)context;
    LLFBSetResultCallback(NULL, NULL);
    atomic_store(&self_unregistered, 1);
}

static void sleep_microseconds(long microseconds) {
    struct timespec pause = { microseconds / 1000000, (microseconds % 1000000) * 1000 };
    nanosleep(&pause, NULL);
}

int main(void) {
    char state_dir[] = "/tmp/limited-login-native-race-XXXXXX";
    if (mkdtemp(state_dir) == NULL) { perror("mkdtemp"); return 1; }
    char state_file[256];
    snprintf(state_file, sizeof state_file, "%s/session.json", state_dir);
    int failed = 0;

    /* Port 1 on loopback refuses at once: each login's result (a failure) is reached within milliseconds. */
    char *init = LLFBInit("123", "http://127.0.0.1:1", state_file);
    if (init == NULL || strcmp(init, "{}") != 0) { printf("FAIL init: %s\n", init ? init : "NULL"); failed++; }
    LLFBFreeString(init);
    /* The library plays the person (no system browser); the unreachable dialog fails each login at once. */
    LLFBFreeString(LLFBUseScriptedPerson("a@example.com", "pw", NULL, 0));

    /* 64 logins at once (a refused connection is retried until the client's connect timeout, so their
     * results are reached together, some seconds later); meanwhile the callback is replaced every 200 µs
     * with a fresh context and the old one freed as soon as the replacing call returns. */
    struct context *current = calloc(1, sizeof *current);
    current->magic = magic;
    LLFBSetResultCallback(on_result, current);
    for (int login = 0; login < logins; login++) {
        LLFBFreeString(LLFBLoginWithTrackingPreference(login, "email", "limited", NULL));
    }
    long replacements = 0;
    for (int tick = 0; tick < 60 * 5000 && atomic_load(&calls_in_all) < logins; tick++) {
        sleep_microseconds(200);
        struct context *next = calloc(1, sizeof *next);
        next->magic = magic;
        LLFBSetResultCallback(on_result, next);
        current->magic = 0;
        free(current); /* a call with it after this point is a heap-use-after-free under ASan */
        current = next;
        replacements++;
    }
    LLFBSetResultCallback(NULL, NULL);
    current->magic = 0;
    free(current);
    if (atomic_load(&calls_in_all) != logins) {
        printf("FAIL %d of %d results were delivered (a callback was registered all along)\n", atomic_load(&calls_in_all), logins);
        failed++;
    }

    /* A callback that unregisters itself returns (no deadlock). */
    LLFBSetResultCallback(unregistering, NULL);
    LLFBFreeString(LLFBLoginWithTrackingPreference(9999, "email", "limited", NULL));
    for (int wait = 0; wait < 600 && !atomic_load(&self_unregistered); wait++) sleep_microseconds(100 * 1000);
    if (!atomic_load(&self_unregistered)) { printf("FAIL the callback that unregisters itself did not return within 60 s\n"); failed++; }

    unlink(state_file);
    rmdir(state_dir);
    printf("native C callback race: %d results delivered across %ld replacements of the callback, %s\n",
           atomic_load(&calls_in_all), replacements, failed == 0 ? "passed" : "FAILED");
    return failed == 0 ? 0 : 1;
}
