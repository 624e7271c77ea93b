--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: ll_access_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_access_tokens (
    token_hash text NOT NULL,
    app_id text NOT NULL,
    user_id text NOT NULL,
    issued_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    data_access_expires_at bigint NOT NULL,
    revoked bigint DEFAULT 0 NOT NULL
);


--
-- Name: ll_app_roles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_app_roles (
    app_id text NOT NULL,
    user_id text NOT NULL,
    role text NOT NULL
);


--
-- Name: ll_app_scoped_ids; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_app_scoped_ids (
    app_id text NOT NULL,
    user_id text NOT NULL,
    asid text NOT NULL
);


--
-- Name: ll_apps; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_apps (
    id text NOT NULL,
    secret text NOT NULL,
    name text NOT NULL,
    business_id text,
    redirect_uris text NOT NULL,
    created_at bigint NOT NULL,
    is_gaming bigint DEFAULT 0 NOT NULL,
    url_scheme_suffixes text DEFAULT ''::text NOT NULL,
    requires_appsecret_proof bigint DEFAULT 0 NOT NULL,
    deauthorize_callback_url text DEFAULT ''::text NOT NULL,
    data_deletion_callback_url text DEFAULT ''::text NOT NULL,
    mode text DEFAULT 'live'::text NOT NULL
);


--
-- Name: ll_authorization_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_authorization_codes (
    code_hash text NOT NULL,
    app_id text NOT NULL,
    user_id text NOT NULL,
    redirect_uri text NOT NULL,
    code_challenge text,
    granted text NOT NULL,
    nonce text,
    expires_at bigint NOT NULL
);


--
-- Name: ll_callback_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_callback_deliveries (
    id text NOT NULL,
    app_id text NOT NULL,
    kind text NOT NULL,
    user_id text NOT NULL,
    url text NOT NULL,
    signed_request text NOT NULL,
    status text NOT NULL,
    attempts bigint NOT NULL,
    next_attempt_at bigint,
    last_error text,
    response_status bigint,
    confirmation_code text,
    status_url text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: ll_friendships; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_friendships (
    user_id text NOT NULL,
    friend_id text NOT NULL
);


--
-- Name: ll_grants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_grants (
    app_id text NOT NULL,
    user_id text NOT NULL,
    granted text NOT NULL,
    declined text NOT NULL,
    installed bigint NOT NULL,
    updated_at bigint NOT NULL,
    messenger_page_id text
);


--
-- Name: ll_schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_schema_migrations (
    name text NOT NULL,
    applied_at bigint NOT NULL
);


--
-- Name: ll_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_sessions (
    id_hash text NOT NULL,
    user_id text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    created_us bigint DEFAULT 0 NOT NULL
);


--
-- Name: ll_settings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_settings (
    name text NOT NULL,
    value text NOT NULL
);


--
-- Name: ll_sign_in_attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_sign_in_attempts (
    attempt_key text NOT NULL,
    window_start bigint NOT NULL,
    attempts bigint NOT NULL
);


--
-- Name: ll_signing_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_signing_keys (
    key_id text NOT NULL,
    private_key_pem text NOT NULL,
    created_at bigint NOT NULL,
    signs_from bigint NOT NULL,
    retired_at bigint
);


--
-- Name: ll_used_forms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_used_forms (
    form_key bigint NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: ll_users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ll_users (
    id text NOT NULL,
    first_name text NOT NULL,
    middle_name text,
    last_name text NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    birthday text,
    gender text,
    hometown_id text,
    hometown_name text,
    location_id text,
    location_name text,
    link text,
    created_at bigint NOT NULL,
    pickable bigint DEFAULT 0 NOT NULL,
    age_range_min bigint,
    age_range_max bigint,
    gaming_name text
);


--
-- Data for Name: ll_access_tokens; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_access_tokens VALUES ('cda399dc01f3f83796d85f6f6cc2ce1338323a77893adbe994e4540fb2991766', '1000000000000001', '107373419154264', 1795973981, 1801157981, 1803749981, 0);


--
-- Data for Name: ll_app_roles; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_app_roles VALUES ('3000000000000003', '982381589013924', 'admin');


--
-- Data for Name: ll_app_scoped_ids; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_app_scoped_ids VALUES ('1000000000000001', '107373419154264', '87474670462490910');


--
-- Data for Name: ll_apps; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_apps VALUES ('1000000000000001', 'c67c496b18d9fa2cf33599727deddf95', 'Demo App', NULL, '', 1795973980, 0, '', 0, '', '', 'live');
INSERT INTO public.ll_apps VALUES ('2000000000000002', 'second-app-secret-0123456789', 'Second App', NULL, 'https://second.example/callback', 1795973981, 0, '', 0, '', '', 'live');
INSERT INTO public.ll_apps VALUES ('3000000000000003', 'dev-app-secret-0123456789', 'Dev App', NULL, '', 1795973981, 0, '', 0, '', '', 'development');


--
-- Data for Name: ll_authorization_codes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: ll_callback_deliveries; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: ll_friendships; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_friendships VALUES ('107373419154264', '377687567380723');
INSERT INTO public.ll_friendships VALUES ('377687567380723', '107373419154264');
INSERT INTO public.ll_friendships VALUES ('107373419154264', '572152474142488');
INSERT INTO public.ll_friendships VALUES ('572152474142488', '107373419154264');
INSERT INTO public.ll_friendships VALUES ('377687567380723', '572152474142488');
INSERT INTO public.ll_friendships VALUES ('572152474142488', '377687567380723');


--
-- Data for Name: ll_grants; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_grants VALUES ('1000000000000001', '107373419154264', 'email,public_profile,user_friends', '', 1, 1795973981, NULL);


--
-- Data for Name: ll_schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_schema_migrations VALUES ('0001_initial', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0002_sign_in_hardening', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0003_gaming_apps_and_messenger_pages', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0004_expiry_indexes', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0005_url_scheme_suffixes', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0006_require_app_secret', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0007_compact_used_forms', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0008_sessions_by_person', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0009_app_callbacks', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0010_app_modes_and_roles', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0011_pickable_users_by_name', 1795973980);
INSERT INTO public.ll_schema_migrations VALUES ('0012_revoked_access_tokens', 1795973980);


--
-- Data for Name: ll_sessions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_sessions VALUES ('2b171baf190c946d3c4084cbc3e6e021592770dd149a05d27971cc66bb934a71', '107373419154264', 1795973981, 1798565981, 1795973981671435);


--
-- Data for Name: ll_settings; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_settings VALUES ('csrf_secret', '0jBGoEOamXE6MAMxUeQUVgiCSEVEGIIlLV4wQDCNX0w');
INSERT INTO public.ll_settings VALUES ('user_token_nonce_secret', 'cKgX3_d0Phguy-pdwov0LhbM-DFP72mzO2QAQEHRC8E');
INSERT INTO public.ll_settings VALUES ('console_epoch', 'wKTE5z1USGC8C7x7N1WyZgkFAWQBlkEs680ya7b1mMs');
INSERT INTO public.ll_settings VALUES ('console_admin_token_sha256', '_gPuivMGV0pAOiW9alx8UCUJThKTo3IgZFGGlTuX7Hk');
INSERT INTO public.ll_settings VALUES ('health_probe', '1795973981');
INSERT INTO public.ll_settings VALUES ('used_forms_forgotten_before', '1795973981');


--
-- Data for Name: ll_sign_in_attempts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: ll_signing_keys; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_signing_keys VALUES ('76811c75556793e38945797a9d34c6cd1eed2e5f', '-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC4loIXgMOlt8Ta
8lIsxWuFpnKftkD9/UbdoiWmkrEg9L3wnhaqVdog4AM8CSmdlnGFp0fxrQGTyffQ
xwKBPHR4JD+9miV0+ygggP5AYZG9AKox8CFWeUaZRsrvxUs8VM/eKXXjWnxgQeI8
r+ikqSAA8V6Tsf7oI0xRzDNLR6lSzcTZ3Fpvbn6hOB9fDfDNDxvlfljrTcOcJRaK
Byd3TuT85XZFiCP30UPsRxHsaoyZS83dJqzxIkhF+EYn9pBxwqKEZchRP39o3gh3
IkPShILuCvWuDkzAXYnZ8SItdDR0xlwR902K331cBj8ZF8D0RObmmzKU9FxYICgo
YoPz+JL3AgMBAAECggEAFQJTEeAUJJHweWe4MPlSqMEOQx2oHbXMnDWJfyvWC5AK
PaSN+YV7pgnpGasEo2I3+dmAHO0vL0YptbJY7M2tMe6/mdG9bqhBY8WwFTLQYXMo
a+D5Yma7ltQnDTg8PRnSw5CeJtTUhX4qL58T5bM20x9Qaj4Jlcait/KmaeyLme1j
zXLb8VmYsUXzBGdI1zUQ5V3NllqAHvyM5t8uVVgj+1/8DCzRQZw4iZqGeUCBi3bp
o5SwqWi0y+C5pQX2FsN9/8A8z4/f3qdpmuE6NtUcyYzg+NJp0Zc9dsmGzPn/uiow
Gk5Tevxc9WoBng7AwnK5TOmRLwXzbqMJwrAdvgO8YQKBgQDfgfgsFIjrGlrtrJ40
bv+lJStgtOHxjJqLaFp0MeMkrYZJHci/K1hBzekwOZuDM6Nm3dhDTT+tPieu9+cl
otcJIirCAIw3OMTYsCv5xDJyoPsZRlJFd4B/zqmIEbSDDfICsXRGwkfpRmla0yE3
1SCvdRqkwdgK4OpC9WMJZFQTIQKBgQDTbBso9yBsKQoKZ8v/TDv5PqH56uEiL/ZQ
DVBt25QOBw9vo7GjsWUUkOcIrTt+13/VEuRPJy0FmPinJNEVCkY3441nBmQIheCy
ui79HR5Wy3mDz+xOcRFIvBMihQQEeUp7QcfRNGuJPzRUFJ7qr+G36RzQ9SJsS5oe
l4sOPfp7FwKBgDJayLu9oJ8/H88+PaJYg5YESsKN3f2ajNLtnrtg5ejEg2WDpU+U
h1zD9E5eHDAx+RVa07dN9xOj1jLwPQ5YopO3M+TjVLO4QXkEL9QkpKz4obmvAygN
ZVDmEYHLY1zHTofWzPiIGsVujJvexzQZ+zQscOU/mtnQlFajjD14cgyhAoGBAKG+
wQCUH4/fzbisNBr6XZ+PVSf3k4kuHEieBvwk0p3wtNR57TsISgZz3Ox8a1nc0AVY
0KXlmMIBh6mHtxVbqOC1C8bX0svacE8LtUsbbcyFGk/HUEeqpMh6akEsdiheCqdF
afMZIXP8kLIKnJF7QToL82nBQDaNmDjzQwUAUZK9AoGAdOh+9ozja240bMoopHf1
F8E7fKOmig/DOSxtYeS8/MlkpVZ9U3BRVE6WblpsdvX0TS6V+Thn0vIXpKUcYQsY
m3HyWHssvviweiBPFu+d5FMtDfeyPEeYOp7Gsp3702T18hMoGwreVVSxz87Qwl+7
cCCkWcsY9qKk6Ysj+HExi7Y=
-----END PRIVATE KEY-----
', 1795973981, 1795973981, NULL);


--
-- Data for Name: ll_used_forms; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_used_forms VALUES (-2684529243181191054, 1795977581);
INSERT INTO public.ll_used_forms VALUES (4540437595543640577, 1795977581);


--
-- Data for Name: ll_users; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ll_users VALUES ('107373419154264', 'Alice', NULL, 'Example', 'alice@example.com', 'pbkdf2-sha256$20000$eLtGKTb_i1k_wm9YjPLfMw$8SZkwd-2O02128SA_mE9AgPz2VmLOcjxOsXigc6zkGM', '04/12/1990', 'female', '110000000000001', 'Springfield', '110000000000002', 'Shelbyville', 'https://www.facebook.com/alice.example', 1795973980, 1, NULL, NULL, NULL);
INSERT INTO public.ll_users VALUES ('377687567380723', 'Bob', NULL, 'Example', 'bob@example.com', 'pbkdf2-sha256$20000$J1RzrZz1KQUXzsoV2LlIVg$aQMmXINOUA0hGmASvLeOeB2iG0ZNuYScHzcwBypn5rs', '09/30/2004', 'male', '110000000000001', 'Springfield', '110000000000002', 'Shelbyville', 'https://www.facebook.com/bob.example', 1795973980, 1, NULL, NULL, NULL);
INSERT INTO public.ll_users VALUES ('572152474142488', 'Carol', NULL, 'Example', 'carol@example.com', 'pbkdf2-sha256$20000$ChD410keIlEP1Ncf5V85GA$rfBCZt3YTM3FJ8XecSZsvmNJAlsVzupo_KAApdn7wBQ', '12/01/1985', 'female', '110000000000001', 'Springfield', '110000000000002', 'Shelbyville', 'https://www.facebook.com/carol.example', 1795973980, 1, NULL, NULL, NULL);
INSERT INTO public.ll_users VALUES ('982381589013924', 'Dana', NULL, 'Example', 'dana@example.com', 'pbkdf2-sha256$20000$-CBPDr-7ja3j6CnaF8nSxg$UoVbQKgLYAvxh0jh8NhXTskqIGvsYnsG-ILmTbMETGw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1795973981, 0, NULL, NULL, NULL);


--
-- Name: ll_access_tokens ll_access_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_access_tokens
    ADD CONSTRAINT ll_access_tokens_pkey PRIMARY KEY (token_hash);


--
-- Name: ll_app_roles ll_app_roles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_app_roles
    ADD CONSTRAINT ll_app_roles_pkey PRIMARY KEY (app_id, user_id);


--
-- Name: ll_app_scoped_ids ll_app_scoped_ids_asid_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_app_scoped_ids
    ADD CONSTRAINT ll_app_scoped_ids_asid_key UNIQUE (asid);


--
-- Name: ll_app_scoped_ids ll_app_scoped_ids_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_app_scoped_ids
    ADD CONSTRAINT ll_app_scoped_ids_pkey PRIMARY KEY (app_id, user_id);


--
-- Name: ll_apps ll_apps_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_apps
    ADD CONSTRAINT ll_apps_pkey PRIMARY KEY (id);


--
-- Name: ll_authorization_codes ll_authorization_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_authorization_codes
    ADD CONSTRAINT ll_authorization_codes_pkey PRIMARY KEY (code_hash);


--
-- Name: ll_callback_deliveries ll_callback_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_callback_deliveries
    ADD CONSTRAINT ll_callback_deliveries_pkey PRIMARY KEY (id);


--
-- Name: ll_friendships ll_friendships_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_friendships
    ADD CONSTRAINT ll_friendships_pkey PRIMARY KEY (user_id, friend_id);


--
-- Name: ll_grants ll_grants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_grants
    ADD CONSTRAINT ll_grants_pkey PRIMARY KEY (app_id, user_id);


--
-- Name: ll_schema_migrations ll_schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_schema_migrations
    ADD CONSTRAINT ll_schema_migrations_pkey PRIMARY KEY (name);


--
-- Name: ll_sessions ll_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_sessions
    ADD CONSTRAINT ll_sessions_pkey PRIMARY KEY (id_hash);


--
-- Name: ll_settings ll_settings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_settings
    ADD CONSTRAINT ll_settings_pkey PRIMARY KEY (name);


--
-- Name: ll_sign_in_attempts ll_sign_in_attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_sign_in_attempts
    ADD CONSTRAINT ll_sign_in_attempts_pkey PRIMARY KEY (attempt_key);


--
-- Name: ll_signing_keys ll_signing_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_signing_keys
    ADD CONSTRAINT ll_signing_keys_pkey PRIMARY KEY (key_id);


--
-- Name: ll_used_forms ll_used_forms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_used_forms
    ADD CONSTRAINT ll_used_forms_pkey PRIMARY KEY (form_key);


--
-- Name: ll_users ll_users_email_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_users
    ADD CONSTRAINT ll_users_email_key UNIQUE (email);


--
-- Name: ll_users ll_users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ll_users
    ADD CONSTRAINT ll_users_pkey PRIMARY KEY (id);


--
-- Name: ll_authorization_codes_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ll_authorization_codes_expiry ON public.ll_authorization_codes USING btree (expires_at);


--
-- Name: ll_callback_deliveries_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ll_callback_deliveries_created ON public.ll_callback_deliveries USING btree (created_at);


--
-- Name: ll_sessions_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ll_sessions_expiry ON public.ll_sessions USING btree (expires_at);


--
-- Name: ll_sessions_person; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ll_sessions_person ON public.ll_sessions USING btree (user_id, created_us);


--
-- Name: ll_sign_in_attempts_window; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ll_sign_in_attempts_window ON public.ll_sign_in_attempts USING btree (window_start);


--
-- Name: ll_used_forms_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ll_used_forms_expiry ON public.ll_used_forms USING btree (expires_at);


--
-- Name: ll_users_pickable; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ll_users_pickable ON public.ll_users USING btree (pickable, created_at);


--
-- Name: ll_users_pickable_name; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ll_users_pickable_name ON public.ll_users USING btree (pickable, lower(first_name), lower(last_name), id);


--
-- PostgreSQL database dump complete
--


