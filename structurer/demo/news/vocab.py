"""Words and sentence templates of the news demo site, per language (data only).

Input: nothing. Output: :data:`LANGS` (site name, sentence, title, teaser and comment
templates, names, month names, date formats per language) and :data:`TOPICS` (actors,
things and places per section). :mod:`structurer.demo.news.corpus` fills the slots.
"""

from __future__ import annotations

from typing import Any

EN: dict[str, Any] = {
    "site": "The Harbour Post",
    "sentences": [
        "{Actor} said on {weekday} that {thing} would be {outcome} by the end of {year}.",
        "According to figures released this week, {thing} grew by {pct} percent compared "
        "with the previous year, the fastest rate since {year0}.",
        "“We have been waiting for this for a long time,” said {person}, {role} in "
        "{place}, adding that the details still had to be worked out.",
        "Critics argue that {thing} has been rushed, pointing to {num} unresolved complaints "
        "filed over the past {months} months.",
        "The decision follows weeks of negotiations between {actor} and {actor2}, which at "
        "times looked close to collapse.",
        "In {place}, where {actor2} has a strong presence, reactions were mixed: some "
        "welcomed the move, others called it a distraction.",
        "Officials expect the first results within {months} months, although they cautioned "
        "that the timetable could still slip.",
        "The plan, worth an estimated {money} million, will be financed partly through "
        "{funding}.",
        "{Person}, who has followed the issue for years, described the outcome as “a "
        "cautious step in the right direction”.",
        "It is not the first time that {thing} has drawn attention; a similar proposal failed "
        "in {year0} after a legal challenge.",
        "A spokesperson for {actor} declined to comment on the timing but confirmed that "
        "talks with {actor2} were continuing.",
        "Residents of {place} will be able to submit their views during a consultation that "
        "opens next {month}.",
        "Independent experts have warned that the costs could rise by as much as {pct} "
        "percent if {thing} is delayed further.",
        "The next meeting is scheduled for {weekday}, when {actor} is expected to present a "
        "revised proposal.",
        "Some {num} people attended a public meeting in {place} on {weekday} evening, many "
        "of them asking how {thing} would affect their daily lives.",
        "Behind the headline numbers lies a more complicated picture, with smaller towns "
        "around {place} seeing far less of the benefit.",
    ],
    "titles": [
        "{Actor} backs {thing} despite objections in {place}",
        "{Thing} faces delay as costs climb {pct} percent",
        "How {thing} could change life in {place}",
        "{Actor} to review {thing} after months of criticism",
        "{Place} waits for answers on {thing}",
        "Why {thing} matters more than {actor} admits",
        "{Actor} and {actor2} reach deal on {thing}",
        "{Thing}: what we know so far",
    ],
    "teasers": [
        "{Actor} wants to move ahead with {thing}, a decision that could affect thousands of "
        "people in {place}.",
        "After months of debate, {thing} is back on the agenda, and {actor2} is not happy.",
        "The numbers look good on paper, but in {place} many remain unconvinced.",
    ],
    "subheads": ["What happens next", "A long road", "Mixed reactions",
                 "The numbers behind the plan", "Why it matters", "Voices from {place}"],
    "comments": [
        "I have lived in {place} for twenty years and I have never seen anything like this, "
        "so forgive me if I remain sceptical about every promise made here.",
        "Honestly, this article misses the point: {thing} was never the real problem, the "
        "lack of planning was, and nobody seems willing to say so.",
        "Great reporting, thank you. Would love a follow-up on what happens to {thing} next "
        "year, and on who actually ends up paying for it.",
        "Who is going to pay for all of this? Certainly not the people who decided it, that "
        "much is clear from the last three attempts.",
        "My neighbour works for {actor} and says the mood there is much worse than "
        "described; people are tired, and the management keeps changing its mind.",
        "Same story every year. Big announcements, glossy brochures, then nothing happens "
        "and we are told to be patient again.",
        "Has anyone read the actual report? Page forty says something quite different from "
        "the summary that everyone keeps quoting.",
        "I disagree with most commenters here; this is a sensible compromise, and the "
        "alternative would have been far more expensive for everyone.",
    ],
    "commenters": ["river_walker", "Janet P.", "oldtimer62", "M. Okonkwo", "bluefinch",
                   "Dave from Leeds", "skeptical_reader", "C. Alvarez", "northsider", "Ruth"],
    "authors": ["Maria Lopez", "James Whitfield", "Priya Natarajan", "Tom Becker",
                "Aisha Okafor", "Daniel Reyes", "Hannah Cole", "Luca Romano", "Grace Kim",
                "Oliver Grant"],
    "people": ["Sarah Mendes", "Peter Haller", "Nia Thompson", "Rafael Ortiz", "Emma Lund",
               "Kwame Mensah", "Julia Brandt", "Ahmed Saleh"],
    "roles": ["a local business owner", "a city councillor", "a researcher",
              "a union representative", "a retired engineer", "a school teacher"],
    "outcomes": ["completed", "approved", "rolled out", "reviewed", "funded", "expanded"],
    "funding": ["a regional development fund", "private investors", "a special levy",
                "existing budgets", "a European grant"],
    "weekdays": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                 "Sunday"],
    "months": ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"],
    "months_short": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                     "Nov", "Dec"],
    "ui": {"by": "By", "updated": "Updated", "comments": "comments", "related": "Related stories",
           "most_read": "Most read", "recommended": "Recommended for you",
           "newsletter": "Get the morning briefing", "share": "Share", "reply": "Reply",
           "next": "Next", "prev": "Previous", "home": "Home", "more": "More from",
           "photo": "Photo", "topics": "Topics", "source": "Source"},
}

DE: dict[str, Any] = {
    "site": "Hafenpost",
    "sentences": [
        "{Actor} teilte am {weekday} mit, dass {thing} bis Ende {year} {outcome} werden soll.",
        "Nach den aktuellen Zahlen ist {thing} im Vergleich zum Vorjahr um {pct} Prozent "
        "gewachsen, so stark wie seit {year0} nicht mehr.",
        "„Darauf haben wir lange gewartet“, sagte {person}, {role} in {place}. Die "
        "Einzelheiten müssten aber noch geklärt werden.",
        "Kritiker bemängeln, dass {thing} überhastet beschlossen worden sei, und "
        "verweisen auf {num} offene Beschwerden aus den vergangenen {months} Monaten.",
        "Der Entscheidung gingen wochenlange Verhandlungen voraus, die zeitweise zu "
        "scheitern drohten.",
        "In {place} fielen die Reaktionen gemischt aus: Die einen begrüßten den "
        "Schritt, die anderen sprachen von einem Ablenkungsmanöver.",
        "Erste Ergebnisse werden in {months} Monaten erwartet, wobei die Verantwortlichen "
        "betonten, dass sich der Zeitplan noch verschieben könne.",
        "Das Vorhaben mit einem geschätzten Volumen von {money} Millionen Euro soll "
        "teilweise über {funding} finanziert werden.",
        "{Person}, die das Thema seit Jahren verfolgt, nannte das Ergebnis „einen "
        "vorsichtigen Schritt in die richtige Richtung“.",
        "Ein Sprecher wollte sich zum Zeitplan nicht äußern, bestätigte aber, "
        "dass die Gespräche weiterlaufen.",
        "Unabhängige Fachleute warnen, dass die Kosten um bis zu {pct} Prozent steigen "
        "könnten, falls sich {thing} weiter verzögert.",
        "Die nächste Sitzung ist für {weekday} angesetzt; dann will {actor} einen "
        "überarbeiteten Vorschlag vorlegen.",
        "Rund {num} Menschen kamen am {weekday}abend zu einer Bürgerversammlung in "
        "{place}, viele wollten wissen, was {thing} für ihren Alltag bedeutet.",
        "Hinter den Zahlen steckt ein gemischtes Bild: Kleinere Gemeinden rund um {place} "
        "profitieren deutlich weniger.",
    ],
    "titles": [
        "{Thing}: {actor} hält trotz Kritik am Kurs fest",
        "Kosten steigen um {pct} Prozent – {thing} verzögert sich",
        "Was {thing} für {place} bedeutet",
        "{Actor} will {thing} neu prüfen",
        "{Place} wartet auf Antworten",
        "Einigung in {place}: {thing} kommt",
        "{Thing} – die wichtigsten Fragen und Antworten",
    ],
    "teasers": [
        "{Actor} will an {thing} festhalten. In {place} wächst der Unmut.",
        "Nach monatelanger Debatte steht {thing} wieder auf der Tagesordnung.",
        "Auf dem Papier sieht alles gut aus, doch in {place} bleiben viele skeptisch.",
    ],
    "subheads": ["Wie es weitergeht", "Ein langer Weg", "Gemischte Reaktionen",
                 "Die Zahlen hinter dem Plan", "Stimmen aus {place}"],
    "comments": [
        "Ich wohne seit zwanzig Jahren in {place} und habe so etwas noch nie erlebt, deshalb "
        "bleibe ich bei solchen Versprechen lieber vorsichtig.",
        "Der Artikel geht am Thema vorbei: Nicht {thing} war das Problem, sondern die "
        "fehlende Planung, und das will offenbar niemand aussprechen.",
        "Danke für die gründliche Recherche. Ich würde gern lesen, wie es mit "
        "{thing} im nächsten Jahr weitergeht und wer am Ende bezahlt.",
        "Wer soll das alles bezahlen? Sicher nicht diejenigen, die es beschlossen haben, das "
        "hat man bei den letzten drei Anläufen gesehen.",
        "Jedes Jahr dasselbe: große Ankündigungen, bunte Broschüren, dann "
        "passiert nichts, und wir sollen wieder Geduld haben.",
        "Hat jemand den eigentlichen Bericht gelesen? Auf Seite vierzig steht etwas ganz "
        "anderes als in der Zusammenfassung, die alle zitieren.",
    ],
    "commenters": ["Hanseat1970", "K. Meier", "Elbsegler", "Petra_W", "nordlicht", "Uwe S.",
                   "Leserin aus Kiel", "derKritiker"],
    "authors": ["Anna Schmidt", "Jonas Weber", "Lena Hoffmann", "Markus Vogel",
                "Sabine Krüger", "Felix Brandt", "Katrin Neumann", "Tobias Lang"],
    "people": ["Claudia Wendt", "Rainer Hoppe", "Miriam Yilmaz", "Stefan Albers",
               "Ingrid Paulsen", "Deniz Arslan"],
    "roles": ["Unternehmerin", "Stadträtin", "Wissenschaftlerin",
              "Betriebsrätin", "Anwohnerin", "Lehrerin"],
    "outcomes": ["abgeschlossen", "genehmigt", "umgesetzt", "geprüft", "finanziert"],
    "funding": ["einen Landesfonds", "private Investoren", "eine Sonderabgabe",
                "bestehende Haushaltsmittel", "EU-Fördermittel"],
    "weekdays": ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag",
                 "Sonntag"],
    "months": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
               "September", "Oktober", "November", "Dezember"],
    "months_short": ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.",
                     "Sept.", "Okt.", "Nov.", "Dez."],
    "ui": {"by": "Von", "updated": "Aktualisiert", "comments": "Kommentare",
           "related": "Mehr zum Thema", "most_read": "Meistgelesen",
           "recommended": "Empfehlungen der Redaktion",
           "newsletter": "Der Hafenpost-Newsletter", "share": "Teilen", "reply": "Antworten",
           "next": "Weiter", "prev": "Zurück", "home": "Startseite", "more": "Mehr aus",
           "photo": "Foto", "topics": "Themen", "source": "Quelle"},
}

ZH: dict[str, Any] = {
    "site": "港湾新闻网",
    "sentences": [
        "{actor}{weekday}表示，{thing}预计将在{year}年底"
        "前{outcome}。",
        "最新数据显示，{thing}同比增长{pct}%，"
        "增速为{year0}年以来最高。",
        "“我们等这一天已经很久了。”"
        "{place}{role}{person}说，具体细节仍需进一步"
        "研究。",
        "也有观点认为，{thing}推进过快，过"
        "去{months}个月内已收到{num}起相关投诉"
        "。",
        "此前，{actor}与{actor2}进行了数周的磋商"
        "，谈判一度陷入僵局。",
        "在{place}，各方反应不一：有人对此"
        "表示欢迎，也有人认为这只是权"
        "宜之计。",
        "相关负责人预计，首批成果将在"
        "{months}个月内显现，但时间表仍有可"
        "能调整。",
        "该项目总投资约{money}亿元，部分资"
        "金将通过{funding}筹措。",
        "长期关注这一问题的{person}认为，这"
        "是“朝着正确方向迈出的谨慎一"
        "步”。",
        "{actor}相关负责人未就具体时间作出"
        "回应，但确认与{actor2}的沟通仍在继"
        "续。",
        "业内专家提醒，如果{thing}进一步推"
        "迟，成本可能上升{pct}%。",
        "据悉，下一次会议定于{weekday}召开，"
        "届时{actor}将提交修改后的方案。",
        "{weekday}晚间，约{num}名市民参加了在{place}"
        "举行的座谈会，不少人关心{thing}将"
        "如何影响日常生活。",
    ],
    "titles": [
        "{place}{thing}取得新进展",
        "{actor}：{thing}将于{year}年全面推进",
        "{thing}引发关注 {actor}回应",
        "聚焦{thing}：{place}这样做",
        "{thing}成本上升{pct}% 多方呼吁加快推进",
        "{place}市民关心的{thing}有了新答案",
    ],
    "teasers": [
        "{actor}表示将继续推进{thing}，{place}市民"
        "对此看法不一。",
        "经过数月讨论，{thing}再次被提上议"
        "程。",
    ],
    "subheads": ["下一步怎么走", "各方反应",
                 "数字背后"],
    "comments": [
        "我在{place}住了二十年，从来没见过"
        "这样的情况，所以对这些承诺还"
        "是持保留态度，希望这次不要再"
        "雷声大雨点小。",
        "文章没说到点子上，{thing}本身不是"
        "问题，问题在于缺乏规划，可惜"
        "没人愿意说出来。",
        "感谢记者的报道，希望能跟踪一"
        "下{thing}明年的进展，以及最后到底"
        "是谁来买单。",
        "每年都是这样，声势很大，然后"
        "就没有然后了，还让我们耐心等"
        "待。",
        "有人看过原始报告吗？第四十页"
        "写的和大家引用的摘要完全不一"
        "样。",
    ],
    "commenters": ["老王", "小李飞刀", "江边散步",
                   "网友123", "默默关注", "北京读者"],
    "authors": ["张伟", "李娜", "王芳", "刘洋", "陈静",
                "赵磊", "周婷", "孙浩"],
    "editors": ["吴敏", "郑强", "黄慧"],
    "people": ["林晓", "何建国", "马丽", "沈涛"],
    "roles": ["一位企业主", "一名市人大代表",
              "一位研究员", "一位退休工程师"],
    "outcomes": ["完成", "落地", "全面铺开",
                 "通过验收"],
    "funding": ["地方专项债", "社会资本",
                "财政拨款"],
    "weekdays": ["周一", "周二", "周三", "周四",
                 "周五", "周六", "周日"],
    "months": [f"{i}月" for i in range(1, 13)],
    "months_short": [f"{i}月" for i in range(1, 13)],
    "ui": {"by": "作者：", "updated": "更新", "comments": "条评论",
           "related": "相关阅读", "most_read": "热门排行",
           "recommended": "推荐阅读", "newsletter": "订阅早报",
           "share": "分享", "reply": "回复", "next": "下一页",
           "prev": "上一页", "home": "首页", "more": "更多",
           "photo": "图", "topics": "标签", "source": "来源："},
}

LANGS: dict[str, dict[str, Any]] = {"en": EN, "de": DE, "zh": ZH}

#: Section slug -> (language, display name, actors, things, places).
TOPICS: dict[str, tuple[str, str, list[str], list[str], list[str]]] = {
    "world": ("en", "World",
              ["the foreign ministry", "the UN envoy", "the coalition government",
               "opposition leaders", "aid agencies", "the port authority", "border officials",
               "the regional assembly"],
              ["the ceasefire talks", "grain exports", "the new trade corridor",
               "emergency shelters", "the water-sharing treaty", "the refugee programme",
               "fishing quotas", "the election recount"],
              ["Lisbon", "Nairobi", "Jakarta", "Montevideo", "Tbilisi", "Hanoi", "Accra",
               "Oslo", "Lima", "Manila"]),
    "technology": ("en", "Technology",
                   ["the chipmaker", "open-source developers", "the telecom regulator",
                    "the startup", "security researchers", "the battery maker",
                    "cloud providers", "the robotics lab"],
                   ["the new processor line", "the encryption standard",
                    "satellite broadband", "the app store rules", "solid-state batteries",
                    "the data-centre expansion", "the browser update", "the quantum testbed"],
                   ["Eindhoven", "Austin", "Bangalore", "Tallinn", "Seoul", "Dublin",
                    "Kyoto", "Toronto"]),
    "sport": ("en", "Sport",
              ["the home side", "the national coach", "the league", "the club's board",
               "the veteran striker", "the cycling federation", "the young goalkeeper",
               "the organisers"],
              ["the cup final", "the transfer window", "the stadium renovation",
               "the anti-doping tests", "the spring marathon", "the relegation battle",
               "the youth academy", "ticket prices"],
              ["Glasgow", "Porto", "Bilbao", "Turin", "Marseille", "Cardiff", "Leeds",
               "Rotterdam"]),
    "wirtschaft": ("de", "Wirtschaft",
                   ["die Bundesbank", "der Autozulieferer", "die Handelskammer",
                    "der Mittelstandsverband", "die Landesregierung", "der Energieversorger",
                    "die Gewerkschaft", "der Onlinehändler"],
                   ["der Ausbau der Stromnetze", "die neue Förderrichtlinie",
                    "der Tarifabschluss", "das Werk in der Lausitz", "die Grundsteuerreform",
                    "der Wohnungsbau", "die Exportquote", "die Lieferkettenprüfung"],
                   ["Leipzig", "Bremen", "Stuttgart", "Dresden", "Kassel", "Rostock",
                    "Augsburg", "Münster"]),
    "kultur": ("de", "Kultur",
               ["das Stadttheater", "die Philharmonie", "der Kulturausschuss", "die Stiftung",
                "das Landesmuseum", "der Verlag", "die Intendantin", "das Filmfestival"],
               ["die Sanierung des Opernhauses", "die neue Dauerausstellung",
                "das Förderprogramm für freie Bühnen",
                "die Digitalisierung des Archivs", "der Literaturpreis",
                "die Sommerspielzeit", "die Rückgabe der Sammlung", "der Eintrittspreis"],
               ["Weimar", "Hamburg", "Köln", "Bayreuth", "Lübeck", "Potsdam",
                "Mannheim", "Erfurt"]),
    "keji": ("zh", "科技",
             ["国家航天局", "某芯片企业",
              "工信部门", "一家新能源车企",
              "中科院研究团队", "多家互联网"
              "平台", "电信运营商", "高校实验室"],
             ["新一代芯片量产", "卫星互联网"
              "建设", "人工智能算力中心",
              "固态电池研发", "5G网络覆盖",
              "数据安全新规", "量子通信试点",
              "智能网联汽车测试"],
             ["深圳", "合肥", "杭州", "成都", "武汉",
              "西安", "苏州", "南京"]),
    "shehui": ("zh", "社会",
               ["市交通管理部门", "社区居委会",
                "市教育局", "卫生健康委员会",
                "志愿者团队", "市住建部门",
                "当地消防救援支队", "民政部门"],
               ["老旧小区改造", "地铁新线开通",
                "养老服务中心建设", "校园午餐"
                "改革", "垃圾分类新规", "夜间公"
                "交线路调整", "防汛应急演练",
                "社区医院扩建"],
               ["广州", "长沙", "青岛", "厦门", "昆明",
                "郑州", "天津", "宁波"]),
}
