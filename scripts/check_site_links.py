#!/usr/bin/env python3
"""Checks every internal link of a built static site: each href/src that is not an
external URL must name a file of the site, and its #fragment an id (or name) in that file.

usage: check_site_links.py SITE_DIR   (exit 1 and one line per broken link)
"""
import html.parser
import os
import sys
import urllib.parse

EXTERNAL = ("http:", "https:", "mailto:", "javascript:", "data:", "ftp:")


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []  # (line, attribute value)
        self.ids = set()
        self.base = None  # <base href>, which relative links resolve against


    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if value is None:
                continue
            if tag == "base" and key == "href":
                self.base = value
            elif key == "id" or (key == "name" and tag == "a"):
                self.ids.add(value)
            elif key in ("href", "src"):
                self.links.append((self.getpos()[0], value))


def parse(path, cache={}):
    if path not in cache:
        page = Page()
        with open(path, encoding="utf-8", errors="replace") as f:
            page.feed(f.read())
        cache[path] = page
    return cache[path]


def main(site):
    site = os.path.abspath(site)
    broken, checked = [], 0
    pages = [
        os.path.join(d, f)
        for d, _, files in os.walk(site)
        for f in files
        if f.endswith(".html")
    ]
    for path in sorted(pages):
        page = parse(path)
        # mdBook's 404 page resolves its links against the site root (`<base href="/">`).
        here = os.path.dirname(path)
        if page.base is not None and page.base.startswith("/"):
            here = os.path.join(site, page.base.lstrip("/"))
        for line, link in page.links:
            if link.startswith(EXTERNAL) or link.startswith("//"):
                continue
            checked += 1
            url = urllib.parse.urlsplit(link)
            target = path
            if url.path:
                target = os.path.normpath(
                    os.path.join(here, urllib.parse.unquote(url.path))
                )
                if os.path.isdir(target):
                    target = os.path.join(target, "index.html")
            rel = os.path.relpath(path, site)
            if not target.startswith(site + os.sep) and target != site:
                broken.append(f"{rel}:{line}: {link} leaves the site")
            elif not os.path.isfile(target):
                broken.append(f"{rel}:{line}: {link}: no such file")
            elif url.fragment and target.endswith(".html"):
                fragment = urllib.parse.unquote(url.fragment)
                if fragment not in parse(target).ids:
                    broken.append(f"{rel}:{line}: {link}: no #{fragment} in that page")
    for b in broken:
        print(b)
    print(
        f"{len(pages)} pages, {checked} internal links, {len(broken)} broken",
        file=sys.stderr,
    )
    return 1 if broken else 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__.strip())
    sys.exit(main(sys.argv[1]))
