extension PageTemplates {
    /// Friendships: the list (each with a Remove that asks first) and "Make friends".
    static let consoleFriends = """
        {{> head}}
        {{> console_top}}
        <ul id="friendships" class="user-list">
        {{#friendships}}
        <li data-search="{{{search}}}" class="toolbar"><span class="grow">{{{firstName}}} and {{{secondName}}}</span> <a href="/_console/confirm/remove-friends?user_id={{{first}}}&amp;friend_id={{{second}}}" class="button small danger" aria-label="End the friendship of {{{firstName}}} and {{{secondName}}}">Remove</a></li>
        {{/friendships}}
        </ul>
        {{^friendships}}<p id="no-friendships">{{#search}}No friendship matches.{{/search}}{{^search}}No two test users are friends yet.{{/search}}</p>{{/friendships}}
        <h2>Make friends</h2>
        <form method="post" action="/_console/actions/add-friends" id="add-friends-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="friend-a">Test user</label><select id="friend-a" name="user_id">{{#userOptions}}<option value="{{{id}}}"{{#firstSelected}} selected{{/firstSelected}}>{{{name}}} ({{{email}}})</option>{{/userOptions}}</select>
        <label for="friend-b">Friend</label><select id="friend-b" name="friend_id">{{#userOptions}}<option value="{{{id}}}"{{#secondSelected}} selected{{/secondSelected}}>{{{name}}} ({{{email}}})</option>{{/userOptions}}</select>
        <button type="submit" class="primary" id="add-friends-button">Make friends</button>
        </form>
        </main>
        </body>
        </html>
        """
}
