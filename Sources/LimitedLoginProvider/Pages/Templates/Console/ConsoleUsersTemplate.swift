extension PageTemplates {
    /// Test users: the list (each with its edit form and a Delete that asks first), "Generate a test user"
    /// and "Create a test user". A form refused keeps what was typed (`kept`), and stays open.
    static let consoleUsers = """
        {{> head}}
        {{> console_top}}
        <table id="users-table" class="compact">
        <thead><tr><th scope="col">Name</th><th scope="col" class="wide">Email</th><th scope="col" class="wide">ID</th><th scope="col" class="wide">Profile</th><th scope="col">Friends</th><th scope="col">Change</th></tr></thead>
        <tbody id="users-list">
        {{#users}}
        <tr data-user-id="{{{id}}}" data-user-email="{{{email}}}" data-search="{{{search}}}"><td class="name">{{{name}}}<span class="narrow muted"> {{{email}}}</span></td><td class="wide">{{{email}}}</td><td class="wide"><code>{{{id}}}</code></td><td class="wide">{{{profile}}}</td><td class="friends"><span class="narrow muted">Friends: </span>{{{friendCount}}}</td>
        <td class="change"><details{{#open}} open{{/open}}><summary>Edit {{{name}}}</summary>
        <form method="post" action="/_console/actions/edit-user" class="edit-user">
        <input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="user_id" value="{{{id}}}">
        <input type="hidden" name="hometown_id" value="{{{hometownID}}}"><input type="hidden" name="location_id" value="{{{locationID}}}">
        <label for="u-first-{{{id}}}">First name</label><input type="text" id="u-first-{{{id}}}" name="first_name" value="{{{firstName}}}" required>
        <label for="u-middle-{{{id}}}">Middle name</label><input type="text" id="u-middle-{{{id}}}" name="middle_name" value="{{{middleName}}}">
        <label for="u-last-{{{id}}}">Last name</label><input type="text" id="u-last-{{{id}}}" name="last_name" value="{{{lastName}}}" required>
        <label for="u-email-{{{id}}}">Email</label><input type="email" id="u-email-{{{id}}}" name="email" value="{{{email}}}" required>
        <label for="u-password-{{{id}}}">New password (empty: unchanged)</label><input type="password" id="u-password-{{{id}}}" name="password" autocomplete="new-password">
        <label for="u-birthday-{{{id}}}">Birthday (MM/DD/YYYY)</label><input type="text" id="u-birthday-{{{id}}}" name="birthday" value="{{{birthday}}}">
        <label for="u-gender-{{{id}}}">Gender</label><input type="text" id="u-gender-{{{id}}}" name="gender" value="{{{gender}}}">
        <label for="u-hometown-{{{id}}}">Hometown</label><input type="text" id="u-hometown-{{{id}}}" name="hometown" value="{{{hometown}}}">
        <label for="u-location-{{{id}}}">Location</label><input type="text" id="u-location-{{{id}}}" name="location" value="{{{location}}}">
        <label for="u-link-{{{id}}}">Profile link</label><input type="text" id="u-link-{{{id}}}" name="link" value="{{{link}}}">
        <label for="u-gaming-{{{id}}}">Avatar name in gaming apps (empty: their name)</label><input type="text" id="u-gaming-{{{id}}}" name="gaming_name" value="{{{gamingName}}}">
        <label class="check"><input type="checkbox" name="pickable" value="1"{{#pickable}} checked{{/pickable}}> Offered on the sign-in page without a password</label>
        <p><button type="submit" class="small primary">Save</button></p>
        </form>
        </details>
        <a href="/_console/confirm/delete-user?user_id={{{id}}}" class="button small danger" data-delete-user="{{{id}}}" aria-label="Delete test user {{{name}}}">Delete</a></td></tr>
        {{/users}}
        </tbody>
        </table>
        {{^users}}<p id="no-users">{{#search}}No test user matches.{{/search}}{{^search}}No test user yet.{{/search}}</p>{{/users}}
        <div class="toolbar">
        <form method="post" action="/_console/actions/generate-user" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><button type="submit" id="generate-user-button">Generate a test user</button></form>
        </div>
        <details id="create-user"{{#kept_create_user}} open{{/kept_create_user}}><summary>Create a test user</summary>
        <form method="post" action="/_console/actions/create-user" id="create-user-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="new-user-first">First name</label><input type="text" id="new-user-first" name="first_name" value="{{{kept_create_user.first_name}}}" required>
        <label for="new-user-middle">Middle name</label><input type="text" id="new-user-middle" name="middle_name" value="{{{kept_create_user.middle_name}}}">
        <label for="new-user-last">Last name</label><input type="text" id="new-user-last" name="last_name" value="{{{kept_create_user.last_name}}}" required>
        <label for="new-user-email">Email</label><input type="email" id="new-user-email" name="email" value="{{{kept_create_user.email}}}" required>
        <label for="new-user-password">Password (empty: none; they are picked on the sign-in page)</label><input type="password" id="new-user-password" name="password" autocomplete="new-password">
        <label for="new-user-birthday">Birthday (MM/DD/YYYY)</label><input type="text" id="new-user-birthday" name="birthday" value="{{{kept_create_user.birthday}}}">
        <label for="new-user-gender">Gender</label><input type="text" id="new-user-gender" name="gender" value="{{{kept_create_user.gender}}}">
        <label for="new-user-hometown">Hometown</label><input type="text" id="new-user-hometown" name="hometown" value="{{{kept_create_user.hometown}}}">
        <label for="new-user-location">Location</label><input type="text" id="new-user-location" name="location" value="{{{kept_create_user.location}}}">
        <label for="new-user-link">Profile link</label><input type="text" id="new-user-link" name="link" value="{{{kept_create_user.link}}}">
        <label class="check"><input type="checkbox" name="pickable" value="1"{{^kept_create_user}} checked{{/kept_create_user}}{{#kept_create_user.pickable}} checked{{/kept_create_user.pickable}}> Offered on the sign-in page without a password</label>
        <p><button type="submit" class="primary" id="create-user-button">Create test user</button></p>
        </form>
        </details>
        </main>
        </body>
        </html>
        """
}
