#ifndef LIMITED_LOGIN_NATIVE_H
#define LIMITED_LOGIN_NATIVE_H

/*
 * The Limited Login SDK as a C library (libLimitedLoginNative), for Unity and any language with a C FFI.
 *
 * The calls mirror the Unity SDK's native login interface (`IOSFBLoginWithTrackingPreference`,
 * `IOSFBLogOut`, `IOSFBCurrentAuthenticationToken`, `IOSFBCurrentProfile`), and the JSON they return
 * has the keys the Unity SDK's C# side reads. The Swift SDK does the work: this layer only converts
 * arguments and results and moves the login onto another thread.
 *
 * Strings
 *   Every `const char *` argument is NUL-terminated UTF-8. Every `char *` a function returns is
 *   owned by the caller and must be released with `LLFBFreeString` (never with `free`). A returned
 *   string is NULL only when memory could not be allocated.
 *
 * Errors
 *   No function crashes on bad input. A call that cannot be carried out returns
 *     {"error":"<what is wrong, in words>","error_code":"<name>"}
 *   (a refused login adds "callback_id"). The names are listed below, after the functions.
 *
 * Threads
 *   Every function may be called from any thread and returns without waiting for the network or the
 *   person. A login's result arrives later through the callback registered with
 *   `LLFBSetResultCallback`, on a thread the library starts for that one call and ends when the callback
 *   returns (so a managed runtime that adopts it lets it go); results come one at a time, in the order
 *   they were reached. The callback should return quickly; it may call the other functions.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Receives a login's result: the request ID given to `LLFBLoginWithTrackingPreference`, and the result
 * as JSON, which the library owns and frees when the callback returns (copy what you keep).
 * `context` is the pointer given to `LLFBSetResultCallback`.
 *
 * The JSON, as the Unity SDK's login result (every value a string unless said):
 *   cancelled:  {"callback_id":"7","cancelled":"true"}
 *   failed:     {"callback_id":"7","error":"<message>","error_code":"<name>"}
 *   limited:    {"callback_id":"7","auth_token_string":"<JWT>","auth_nonce":"<nonce>",
 *                "granted_permissions":[...],"declined_permissions":[...]}   (arrays of strings)
 *   classic:    the limited members and "opened":"true","access_token","user_id","expiration_timestamp",
 *               "last_refresh" (Unix seconds),"permissions" (array),"graph_domain"
 */
typedef void (*LLFBResultCallback)(int32_t request_id, const char *result_json, void *context);

/*
 * Sets up the library: the app's ID (ASCII letters and digits), the provider — "facebook" for the real
 * service, or the base URL of a `limited-login serve` provider ("http://127.0.0.1:8080") — and where
 * the signed-in state is saved between runs: a file path, or NULL for the SDK's default
 * ($LIMITED_LOGIN_STATE_FILE, else $XDG_STATE_HOME/limited-login/session.json). May be called again to
 * change them. Returns {} or an error.
 */
char *LLFBInit(const char *app_id, const char *provider, const char *state_file);

/*
 * Registers the function that receives login results (NULL stops the delivery; results delivered while
 * none is registered are dropped). `context` is handed back on every call. Each result goes to the
 * callback registered when it is delivered. Once this function has returned, the callback it replaced is
 * never called again, so its context may be freed at once (as a Unity domain reload frees it): if that
 * callback is running on the library's thread, this function waits for it to return, unless it is called
 * from inside that callback (a callback may unregister itself).
 */
void LLFBSetResultCallback(LLFBResultCallback callback, void *context);

/*
 * Starts a login and returns at once. `scope`: comma-separated permissions ("email,user_friends"; ""
 * for none). `tracking`: "limited" or "enabled". `nonce`: the nonce the ID token must carry; NULL or ""
 * for a fresh random one. Returns {"callback_id":"<request_id>"} when the login started — its result
 * comes later through the callback, exactly once — or that object with "error" and "error_code" when it
 * was refused, and then nothing comes through the callback.
 */
char *LLFBLoginWithTrackingPreference(int32_t request_id, const char *scope, const char *tracking, const char *nonce);

/* Signs out: the authentication token, access token and profile become empty, in memory and on disk.
 * Returns {} or an error. */
char *LLFBLogOut(void);

/* The current authentication token as {"auth_token_string":"<JWT>","auth_nonce":"<nonce>"}, "" when
 * nobody is signed in, or an error. */
char *LLFBCurrentAuthenticationToken(void);

/* The current access token (after a classic login; restored by LLFBInit from the saved session) as
 * {"access_token","user_id","expiration_timestamp","last_refresh" (Unix seconds, as strings),
 * "permissions" (an array),"graph_domain"}: the members of a classic login's result. "" when there is
 * none (nobody signed in, or a limited login), or an error. */
char *LLFBCurrentAccessToken(void);

/*
 * The current profile as the Unity SDK's flat object of strings — "userID", "firstName", "middleName",
 * "lastName", "name", "email", "imageURL", "linkURL", "friendIDs" (comma-separated), "birthday" (Unix
 * seconds of midnight UTC), "ageMin", "ageMax", "hometown_id", "hometown_name", "location_id",
 * "location_name", "gender"; a member is absent when the person did not share it — "" when nobody is
 * signed in, or an error.
 */
char *LLFBCurrentProfile(void);

/* Releases a string this library returned. NULL is ignored. */
void LLFBFreeString(char *string);

/*
 * For tests and CI: from now on the person is played by the library, on the provider's real dialog
 * pages, with a browser of its own (no cookies). It signs in as `email` with `password`, or, when
 * `password` is NULL, picks the test user `email` on the sign-in page; on the consent page it unticks
 * `untick` (comma-separated permissions, NULL or "" for none) and presses Continue, or Cancel when
 * `cancel` is not 0. Returns {} or an error.
 */
char *LLFBUseScriptedPerson(const char *email, const char *password, const char *untick, int32_t cancel);

/* The person uses the system browser again (the default): the dialog opens there and its answer comes
 * back to a listener on 127.0.0.1; the address is also printed on standard error. */
void LLFBUseSystemBrowser(void);

/*
 * The "error_code" names:
 *   null_argument             a required argument is NULL
 *   invalid_utf8              an argument is not valid UTF-8
 *   argument_too_long         an argument is longer than 65536 bytes
 *   unknown_tracking          tracking is neither "limited" nor "enabled"
 *   not_initialized           LLFBInit has not succeeded yet
 *   invalid_app_id            the app ID is empty, too long, or not made of ASCII letters and digits
 *   invalid_provider          the provider is neither "facebook" nor an http(s) URL
 *   invalid_state_file        the state file path is empty
 *   invalid_email             the scripted person's email is empty
 *   no_callback               a login was asked for with no callback registered
 *   invalid_nonce             the nonce holds whitespace or control characters
 *   invalid_permission_name   a permission (in scope or untick) is neither a known name (such as
 *                             "user_actions.books") nor made of a-z and _
 *   permission_not_allowed_in_limited_login   a limited login asked for such a permission
 *   not_saved                 the signed-in state could not be written (log out, or at the end of a login)
 * and a login's failures, as the SDK names them (its LoginError):
 *   dialog_failed, invalid_id_token, bad_challenge_string, access_token_hash_mismatch,
 *   malformed_callback, provider_unavailable, code_exchange_failed, presentation_failed, timed_out,
 *   invalid_configuration, dialog_unreachable, missing_app_id, missing_access_token
 */

#ifdef __cplusplus
}
#endif

#endif
