# The app servers behind this Varnish and who may purge it (address and secret); included by varnish.vcl.
# One app server on this machine; add a backend (and app.add_backend) per server.
vcl 4.1;

backend app1 {
  .host = "127.0.0.1";
  .port = "4321";
  .probe = site_health;
}

# The app servers send their purges from these addresses (PURGE_VARNISH on each server).
acl purgers {
  "127.0.0.1";
  "::1";
}

# The secret the app servers send with each purge: the same value as PURGE_SECRET on every app
# server, made once with `openssl rand -hex 32` (32 to 256 of A-Z a-z 0-9 + / = . _ ~ -). Left
# empty, as shipped, every purge is refused. Keep this file readable by root and varnish only.
sub purge_secret {
  set req.http.purge-secret-expected = "";
}

# The TLS terminator (nginx, Caddy) that hands readers' requests to this Varnish, if any.
acl tls_terminators {
  "127.0.0.1";
}

sub vcl_init {
  new site = directors.round_robin();
  site.add_backend(app1);
}

sub site_backend {
  set req.backend_hint = site.backend();
}
