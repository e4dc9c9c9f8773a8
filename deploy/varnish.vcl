# Varnish in front of the study site (Debian's varnish 7 + varnish-modules for xkey).
#
#   varnishd -a :80 -f /path/to/deploy/varnish.vcl -p vcl_path=/etc/varnish:/path/to/deploy -s malloc,256m
#
# The app servers, the addresses allowed to purge and the purge secret are in site-backends.vcl
# (found through vcl_path; deploy/site-backends.vcl is the one-server example). Run the app servers
# with PURGE_VARNISH=http://<this varnish>, PURGE_SECRET=<the secret in site-backends.vcl> and
# CDN_TAG_HEADERS=xkey (docs/deploying.md, "Behind Varnish or a CDN").
vcl 4.1;

import std;
import xkey;
import directors;

# What every app server answers to a probe: the database and the page store respond.
probe site_health {
  .request = "GET /healthz HTTP/1.1" "Host: healthz" "Connection: close";
  .expected_response = 200;
  .interval = 2s;
  .timeout = 2s;
  .window = 5;
  .threshold = 3;
  .initial = 3;
}

# Defines the backends (with .probe = site_health), the `site` director, sub site_backend,
# acl purgers, sub purge_secret and acl tls_terminators.
include "site-backends.vcl";

sub vcl_recv {
  call site_backend;

  # Varnish appends the connecting address to X-Forwarded-For, and the app (TRUST_PROXY=true)
  # keys its rate limits on the last entry. Behind a TLS terminator that address is the
  # terminator's own: drop it, leaving the entry the terminator wrote (the reader's).
  if (client.ip ~ tls_terminators && req.http.X-Forwarded-For ~ ",") {
    set req.http.X-Forwarded-For = regsub(req.http.X-Forwarded-For, ",\s*[^,]*$", "");
  }

  # Purges: PURGE with an xkey-purge (drop now) or xkey-softpurge (serve stale while refetching)
  # header listing keys, only from the purgers acl AND with the secret of sub purge_secret
  # (site-backends.vcl; PURGE_SECRET on the app servers). The acl alone is not enough: a proxy on
  # this host (nginx terminating TLS) connects from an address in it and would pass readers' PURGEs
  # on. No secret configured (the shipped example): every purge is refused.
  if (req.method == "PURGE") {
    unset req.http.purge-secret-expected;
    call purge_secret;
    if (client.ip !~ purgers
        || req.http.purge-secret-expected !~ "^[A-Za-z0-9+/=._~-]{32,}$"
        || req.http.X-Purge-Secret != req.http.purge-secret-expected) {
      return (synth(403, "Purge not allowed"));
    }
    if (req.http.xkey-purge) {
      set req.http.n-gone = xkey.purge(req.http.xkey-purge);
    } else if (req.http.xkey-softpurge) {
      set req.http.n-gone = xkey.softpurge(req.http.xkey-softpurge);
    } else {
      return (synth(400, "Send xkey-purge or xkey-softpurge"));
    }
    return (synth(200, "Purged " + req.http.n-gone));
  }

  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }

  # Admin screens and the API are per person and per moment: straight to the app.
  # /setup reads its one-time token from the query.
  if (req.url ~ "^/(api|admin)(/|\?|$)" || req.url ~ "^/(login|logout|register|setup)(\?|$)") {
    return (pass);
  }
  # Search results depend on what is typed: never cached (the app marks them private as well).
  if (req.url ~ "^/blogs/?\?(.*&)?search=") {
    return (pass);
  }
  # A logged-in reader (the session cookie) or an API client: pass, cookies intact.
  if (req.http.Authorization || req.http.Cookie ~ "(^|;\s*)(__Host-)?session=[^;\s]") {
    return (pass);
  }
  # Other cookies do not change a public page: dropped, so every reader shares one copy.
  unset req.http.Cookie;
  call keep_page_query;

  # One cached copy per encoding the app offers: br, gzip or none.
  if (req.http.Accept-Encoding ~ "\bbr\b") {
    set req.http.Accept-Encoding = "br";
  } else if (req.http.Accept-Encoding ~ "\bgzip\b") {
    set req.http.Accept-Encoding = "gzip";
  } else {
    unset req.http.Accept-Encoding;
  }
  set req.http.x-encoding = req.http.Accept-Encoding;

  # Uploads keep the reader's Range: Varnish answers it from the whole cached file (a miss
  # fetches the file once, streaming it), so a PDF viewer's range requests work on a hit too.
  return (hash);
}

# The query parameters each public page reads, as the app's page store keys its pages
# (src/server/page-store/site-map.ts, pageKeyOf): `page` on the home page, `category` and `page` on
# /blogs (a search was passed above), none anywhere else. Every other parameter is dropped, page=1
# too, and the rest sorted, so /blog/3?r=<random> finds the one cached /blog/3 instead of filling
# the cache; the app is asked for the same normalised URL, so the copy matches its address.
sub keep_page_query {
  if (req.url !~ "\?") {
    return;
  }
  if (req.url ~ "^/blogs/?\?") {
    set req.url = regsuball(req.url, "(?<=[?&])(?!(?:category|page)=)[^&]*(?:&|$)", "");
  } else if (req.url ~ "^/\?") {
    set req.url = regsuball(req.url, "(?<=[?&])(?!page=)[^&]*(?:&|$)", "");
  } else {
    set req.url = regsub(req.url, "\?.*$", "");
  }
  # A kept parameter given twice or with a value no page takes: the app answers that per request
  # (its store keeps no page for it either), never cached, so such variants cannot fill the cache.
  if (req.url ~ "[?&](category|page)=(?![1-9][0-9]{0,9}(&|$))"
      || req.url ~ "[?&]page=.*&page="
      || req.url ~ "[?&]category=.*&category=") {
    return (pass);
  }
  set req.url = regsuball(req.url, "(?<=[?&])page=1(?:&|$)", "");
  set req.url = regsub(req.url, "[?&]+$", "");
  set req.url = std.querysort(req.url);
}

sub vcl_hash {
  hash_data(req.url);
  if (req.http.host) {
    hash_data(req.http.host);
  } else {
    hash_data(server.ip);
  }
  hash_data(req.http.x-encoding);
  return (lookup);
}

sub vcl_backend_fetch {
  # Varnish's own gzip support asks the backend for gzip; ask for what the reader takes instead,
  # so brotli readers get the app's brotli copy.
  if (bereq.http.x-encoding) {
    set bereq.http.Accept-Encoding = bereq.http.x-encoding;
  } else {
    unset bereq.http.Accept-Encoding;
  }
  unset bereq.http.x-encoding;
}

sub vcl_backend_response {
  # The app already compressed the answer; never unzip or re-zip it.
  set beresp.do_gzip = false;
  set beresp.do_gunzip = false;
  if (beresp.http.Set-Cookie) {
    # Never cache an answer that sets a cookie; remember for 2 minutes not to wait for it.
    set beresp.uncacheable = true;
    set beresp.ttl = 120s;
    return (deliver);
  }
  if (beresp.http.Cache-Control !~ "\bpublic\b" || beresp.http.Cache-Control ~ "\b(private|no-store|no-cache)\b") {
    # Only answers the app offers to shared caches are kept: pages with s-maxage, files.
    set beresp.uncacheable = true;
    set beresp.ttl = 120s;
    return (deliver);
  }
  if (beresp.http.Cache-Control ~ "s-maxage=") {
    # A page: beresp.ttl is its s-maxage; grace keeps a stale (or soft-purged) copy answering
    # while the fresh one is fetched, and serving if every app server is down.
    set beresp.grace = 24h;
  } else if (bereq.url ~ "^/(uploads|_astro)/" && beresp.status == 200) {
    # Immutable names (random upload names, hashed assets): kept as long as the app allows.
    set beresp.grace = 24h;
  } else if (beresp.ttl <= 0s) {
    # public, max-age=0 without s-maxage: the app runs with no purging configured.
    set beresp.uncacheable = true;
    set beresp.ttl = 120s;
    return (deliver);
  }
  return (deliver);
}

sub vcl_deliver {
  # Tags and cache directives meant for this cache only.
  unset resp.http.xkey;
  unset resp.http.Surrogate-Key;
  unset resp.http.Cache-Tag;
  if (resp.http.Cache-Control ~ "s-maxage=") {
    set resp.http.Cache-Control = regsuball(resp.http.Cache-Control, ",\s*(s-maxage|stale-while-revalidate)=\d+", "");
  }
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
  unset resp.http.Via;
}

sub vcl_synth {
  set resp.http.Content-Type = "text/plain; charset=utf-8";
  set resp.http.Cache-Control = "no-store";
  set resp.body = resp.reason + {"
"};
  return (deliver);
}
