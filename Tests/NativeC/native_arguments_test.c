/*
 * Calls every entry point of libLimitedLoginNative with bad arguments and checks the exact error each
 * returns (limited_login_native.h), then one login that fails on the network, to see its result arrive
 * through the callback on another thread. Built and run by scripts/unity (with AddressSanitizer when the
 * compiler has it): every returned string goes back through LLFBFreeString, so a wrong free or a leak
 * of ours shows. Exits 0 when every check held.
 */
#include "limited_login_native.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int passed = 0;
static int failed = 0;

/* Checks that `actual` (a string the library returned) is exactly `expected`, then frees it. */
static void expect(const char *what, char *actual, const char *expected) {
    if (actual == NULL) {
        printf("FAIL %s: NULL returned\n", what);
        failed++;
        return;
    }
    if (strcmp(actual, expected) == 0) {
        passed++;
    } else {
        printf("FAIL %s:\n  expected %s\n  found    %s\n", what, expected, actual);
        failed++;
    }
    LLFBFreeString(actual);
}

/* Checks that `actual` holds `part`, then frees it. */
static void expect_containing(const char *what, char *actual, const char *part) {
    if (actual != NULL && strstr(actual, part) != NULL) {
        passed++;
    } else {
        printf("FAIL %s: expected to contain %s, found %s\n", what, part, actual ? actual : "NULL");
        failed++;
    }
    LLFBFreeString(actual);
}

static const char *not_initialized =
    "{\"error\":\"LLFBInit has not succeeded yet: set up the app ID and provider first\",\"error_code\":\"not_initialized\"}";

/* What the callback received. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t arrived = PTHREAD_COND_INITIALIZER;
static int received_count = 0;
static int32_t received_id = 0;
static char received_json[4096];
static pthread_t received_thread;
static void *received_context = NULL;

static void on_result(int32_t request_id, const char *result_json, void *context) {
    pthread_mutex_lock(&lock);
    received_count++;
    received_id = request_id;
    snprintf(received_json, sizeof received_json, "%s", result_json ? result_json : "(NULL)");
    received_thread = pthread_self();
    received_context = context;
    pthread_cond_broadcast(&arrived);
    pthread_mutex_unlock(&lock);
}

/* Waits up to `seconds` for `count` results in all. */
static int wait_for_results(int count, int seconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += seconds;
    pthread_mutex_lock(&lock);
    while (received_count < count) {
        if (pthread_cond_timedwait(&arrived, &lock, &deadline) != 0) break;
    }
    int reached = received_count >= count;
    pthread_mutex_unlock(&lock);
    return reached;
}

int main(void) {
    char state_dir[] = "/tmp/limited-login-native-test-XXXXXX";
    if (mkdtemp(state_dir) == NULL) { perror("mkdtemp"); return 2; }
    char state_file[256];
    snprintf(state_file, sizeof state_file, "%s/session.json", state_dir);

    /* Before LLFBInit: every call says so. */
    expect("CurrentProfile before init", LLFBCurrentProfile(), not_initialized);
    expect("CurrentAuthenticationToken before init", LLFBCurrentAuthenticationToken(), not_initialized);
    expect("CurrentAccessToken before init", LLFBCurrentAccessToken(), not_initialized);
    expect("LogOut before init", LLFBLogOut(), not_initialized);
    expect("login before init", LLFBLoginWithTrackingPreference(1, "email", "limited", "n"),
           "{\"callback_id\":\"1\",\"error\":\"LLFBInit has not succeeded yet: set up the app ID and provider first\",\"error_code\":\"not_initialized\"}");

    /* LLFBInit's arguments. */
    expect("init: NULL app ID", LLFBInit(NULL, "facebook", NULL), "{\"error\":\"app_id is NULL\",\"error_code\":\"null_argument\"}");
    expect("init: NULL provider", LLFBInit("123", NULL, NULL), "{\"error\":\"provider is NULL\",\"error_code\":\"null_argument\"}");
    expect("init: app ID not UTF-8", LLFBInit("\xff\xfe", "facebook", NULL), "{\"error\":\"app_id is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("init: overlong UTF-8", LLFBInit("\xc0\xaf", "facebook", NULL), "{\"error\":\"app_id is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("init: UTF-8 surrogate", LLFBInit("\xed\xa0\x80", "facebook", NULL), "{\"error\":\"app_id is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("init: truncated UTF-8", LLFBInit("12\xe2\x82", "facebook", NULL), "{\"error\":\"app_id is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("init: provider not UTF-8", LLFBInit("123", "\x80", NULL), "{\"error\":\"provider is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("init: state file not UTF-8", LLFBInit("123", "facebook", "/tmp/\xff"), "{\"error\":\"state_file is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    size_t long_length = 70000;
    char *long_text = malloc(long_length + 1);
    if (long_text == NULL) return 2;
    memset(long_text, '1', long_length);
    long_text[long_length] = 0;
    expect("init: app ID too long", LLFBInit(long_text, "facebook", NULL),
           "{\"error\":\"app_id is longer than 65536 bytes\",\"error_code\":\"argument_too_long\"}");
    expect("init: empty app ID", LLFBInit("", "facebook", NULL),
           "{\"error\":\"the app ID must be 1 to 64 ASCII letters and digits, not \\\"\\\"\",\"error_code\":\"invalid_app_id\"}");
    expect("init: app ID with a slash", LLFBInit("12/3", "facebook", NULL),
           "{\"error\":\"the app ID must be 1 to 64 ASCII letters and digits, not \\\"12/3\\\"\",\"error_code\":\"invalid_app_id\"}");
    expect("init: gopher provider", LLFBInit("123", "gopher://127.0.0.1", NULL),
           "{\"error\":\"the provider must be \\\"facebook\\\" or a provider's http(s) base URL such as http://127.0.0.1:8080, not \\\"gopher://127.0.0.1\\\"\",\"error_code\":\"invalid_provider\"}");
    expect_containing("init: provider without a host", LLFBInit("123", "http://", NULL), "\"error_code\":\"invalid_provider\"");
    expect_containing("init: provider with a query", LLFBInit("123", "http://127.0.0.1:8080/?a=b", NULL), "\"error_code\":\"invalid_provider\"");
    expect_containing("init: provider with user info", LLFBInit("123", "http://u:p@127.0.0.1:8080", NULL), "\"error_code\":\"invalid_provider\"");
    expect_containing("init: provider in words", LLFBInit("123", "Facebook", NULL), "\"error_code\":\"invalid_provider\"");
    expect("init: empty state file", LLFBInit("123", "facebook", ""),
           "{\"error\":\"the state file path is empty (pass NULL for the default)\",\"error_code\":\"invalid_state_file\"}");
    expect("still not initialised after refusals", LLFBCurrentProfile(), not_initialized);

    /* LLFBUseScriptedPerson's arguments (accepted before init: it is a setting). */
    expect("person: NULL email", LLFBUseScriptedPerson(NULL, "pw", NULL, 0), "{\"error\":\"email is NULL\",\"error_code\":\"null_argument\"}");
    expect("person: empty email", LLFBUseScriptedPerson("", NULL, NULL, 0), "{\"error\":\"the scripted person's email is empty\",\"error_code\":\"invalid_email\"}");
    expect("person: email not UTF-8", LLFBUseScriptedPerson("a\xff@example.com", NULL, NULL, 0), "{\"error\":\"email is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("person: password not UTF-8", LLFBUseScriptedPerson("a@example.com", "\xff", NULL, 0), "{\"error\":\"password is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("person: untick not UTF-8", LLFBUseScriptedPerson("a@example.com", NULL, "\xff", 0), "{\"error\":\"untick is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("person: untick not a permission", LLFBUseScriptedPerson("a@example.com", NULL, "email,E-mail", 0),
           "{\"error\":\"untick: \\\"E-mail\\\" is not a valid permission name (only a-z and _)\",\"error_code\":\"invalid_permission_name\"}");
    expect("person: accepted", LLFBUseScriptedPerson("a@example.com", "pw", "email,user_friends", 1), "{}");

    /* Set up against a provider that is not there (port 1 on loopback refuses connections). */
    expect("init: accepted", LLFBInit("123", "http://127.0.0.1:1", state_file), "{}");
    expect("no profile yet", LLFBCurrentProfile(), "");
    expect("no token yet", LLFBCurrentAuthenticationToken(), "");
    expect("no access token yet", LLFBCurrentAccessToken(), "");
    expect("log out with nothing signed in", LLFBLogOut(), "{}");

    /* A login needs a callback. */
    expect("login without a callback", LLFBLoginWithTrackingPreference(2, "email", "limited", "n"),
           "{\"callback_id\":\"2\",\"error\":\"no result callback is registered (LLFBSetResultCallback): the login's result would be lost\",\"error_code\":\"no_callback\"}");
    int context_value = 42;
    LLFBSetResultCallback(on_result, &context_value);

    /* LLFBLoginWithTrackingPreference's arguments. */
    expect("login: NULL scope", LLFBLoginWithTrackingPreference(3, NULL, "limited", "n"),
           "{\"callback_id\":\"3\",\"error\":\"scope is NULL\",\"error_code\":\"null_argument\"}");
    expect("login: NULL tracking", LLFBLoginWithTrackingPreference(4, "email", NULL, "n"),
           "{\"callback_id\":\"4\",\"error\":\"tracking is NULL\",\"error_code\":\"null_argument\"}");
    expect("login: scope not UTF-8", LLFBLoginWithTrackingPreference(5, "email,\xc3", "limited", "n"),
           "{\"callback_id\":\"5\",\"error\":\"scope is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("login: tracking not UTF-8", LLFBLoginWithTrackingPreference(6, "email", "\xff", "n"),
           "{\"callback_id\":\"6\",\"error\":\"tracking is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("login: nonce not UTF-8", LLFBLoginWithTrackingPreference(7, "email", "limited", "\xff"),
           "{\"callback_id\":\"7\",\"error\":\"nonce is not valid UTF-8\",\"error_code\":\"invalid_utf8\"}");
    expect("login: nonce too long", LLFBLoginWithTrackingPreference(8, "email", "limited", long_text),
           "{\"callback_id\":\"8\",\"error\":\"nonce is longer than 65536 bytes\",\"error_code\":\"argument_too_long\"}");
    expect("login: tracking in capitals", LLFBLoginWithTrackingPreference(9, "email", "LIMITED", "n"),
           "{\"callback_id\":\"9\",\"error\":\"tracking must be \\\"limited\\\" or \\\"enabled\\\", not \\\"LIMITED\\\"\",\"error_code\":\"unknown_tracking\"}");
    expect("login: empty tracking", LLFBLoginWithTrackingPreference(10, "email", "", "n"),
           "{\"callback_id\":\"10\",\"error\":\"tracking must be \\\"limited\\\" or \\\"enabled\\\", not \\\"\\\"\",\"error_code\":\"unknown_tracking\"}");
    expect("login: nonce with a space", LLFBLoginWithTrackingPreference(11, "email", "limited", "a b"),
           "{\"callback_id\":\"11\",\"error\":\"the nonce must be a non-empty string without whitespace or control characters\",\"error_code\":\"invalid_nonce\"}");
    expect("login: nonce with a tab", LLFBLoginWithTrackingPreference(12, "email", "limited", "a\tb"),
           "{\"callback_id\":\"12\",\"error\":\"the nonce must be a non-empty string without whitespace or control characters\",\"error_code\":\"invalid_nonce\"}");
    expect("login: user_likes in a limited login", LLFBLoginWithTrackingPreference(13, "email,user_likes", "limited", "n"),
           "{\"callback_id\":\"13\",\"error\":\"\\\"user_likes\\\" cannot be requested in a limited login\",\"error_code\":\"permission_not_allowed_in_limited_login\"}");
    expect("login: a permission with a dash", LLFBLoginWithTrackingPreference(-14, "user-friends", "enabled", NULL),
           "{\"callback_id\":\"-14\",\"error\":\"scope: \\\"user-friends\\\" is not a valid permission name (only a-z and _)\",\"error_code\":\"invalid_permission_name\"}");

    /* Nothing refused reaches the callback. */
    usleep(200 * 1000);
    pthread_mutex_lock(&lock);
    int refused_reached = received_count;
    pthread_mutex_unlock(&lock);
    if (refused_reached == 0) passed++; else { printf("FAIL refused logins reached the callback %d times\n", refused_reached); failed++; }

    /* An accepted login whose provider cannot be reached: its failure comes through the callback, once,
     * on another thread, with the context. */
    expect("login: accepted", LLFBLoginWithTrackingPreference(15, "email", "limited", NULL), "{\"callback_id\":\"15\"}");
    if (!wait_for_results(1, 60)) {
        printf("FAIL the accepted login's result did not arrive within 60 s\n");
        failed++;
    } else {
        pthread_mutex_lock(&lock);
        if (received_id == 15) passed++; else { printf("FAIL result for request %d, expected 15\n", received_id); failed++; }
        if (strstr(received_json, "\"callback_id\":\"15\"") && strstr(received_json, "\"error_code\":\"dialog_unreachable\"")
            && strstr(received_json, "the login dialog at http://127.0.0.1:1 cannot be reached: connection refused")) {
            passed++;
        } else {
            printf("FAIL the unreachable provider's result: %s\n", received_json);
            failed++;
        }
        if (!pthread_equal(received_thread, pthread_self())) passed++; else { printf("FAIL the callback ran on the caller's thread\n"); failed++; }
        if (received_context == &context_value) passed++; else { printf("FAIL the callback's context is not the registered one\n"); failed++; }
        pthread_mutex_unlock(&lock);
    }
    expect("no profile after the failed login", LLFBCurrentProfile(), "");

    /* A state file that cannot be written: logging out says so. */
    expect("init: unwritable state file", LLFBInit("123", "http://127.0.0.1:1", "/dev/null/session.json"), "{}");
    expect("log out to an unwritable state file", LLFBLogOut(),
           "{\"error\":\"cannot save the login to /dev/null/session.json: Not a directory\",\"error_code\":\"not_saved\"}");

    /* Unregistering the callback: logins are refused again. */
    LLFBSetResultCallback(NULL, NULL);
    expect("login after the callback was removed", LLFBLoginWithTrackingPreference(16, "", "enabled", NULL),
           "{\"callback_id\":\"16\",\"error\":\"no result callback is registered (LLFBSetResultCallback): the login's result would be lost\",\"error_code\":\"no_callback\"}");
    LLFBUseSystemBrowser();
    LLFBFreeString(NULL);

    free(long_text);
    unlink(state_file);
    rmdir(state_dir);
    printf("native C: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
