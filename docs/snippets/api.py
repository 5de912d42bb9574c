import urllib.request

import structurer

settings = structurer.Settings(render="static")          # this shop needs no browser
rules, report = structurer.analyze_site("http://127.0.0.1:8001/", settings=settings)
structurer.save_rules(rules, "127.0.0.1_8001.yaml")

for n, record in enumerate(structurer.crawl(rules, settings)):   # records as they come
    print(record["name"], record["price"], record["currency"], record["url"])
    if n == 9:
        break                                             # leaving the loop ends the crawl

page = urllib.request.urlopen(record["url"]).read()       # a product page (bytes or text)
print(structurer.extract(rules, page, record["url"]))     # by the rules: [{"name": ...}]
print(structurer.extract_page(page, record["url"]))       # rule-free: {"kind": "detail", ...}
