"""English function words that carry no meaning in a search query, and a light stemmer.

``FUNCTION_WORDS`` ("the closing time of the bug") is lowercase. A query made only of them
keeps them (``"the"`` still searches for "the"); otherwise they are dropped before ranking, so
prose that repeats "of the" does not outrank the record that holds the query's words.

``ABBREVIATIONS`` maps a word as a query spells it to the shorter forms and spellings code and tools
write it in (``argument`` -> ``arg``, ``args``; ``configuration`` -> ``config``, ``cfg``; ``colour``
-> ``color``; a plural is matched through its stem by the caller): a question asked in full words
still finds ``max_retries``, ``parseArgs`` and ``NO_COLOR``, and one asked in short forms finds the
full words (``tz`` -> ``timezone``, ``db`` -> ``database``). Shortenings and spelling variants of
one word, and a few groups of words of the trade that name the same thing in a question and in a
tool's output (``limit``, ``max``; ``remove``, ``delete``; ``version``, ``release``; ``license``,
``copyright``; ``required``, ``mandatory``; ``latest``, ``newest``; a "missing" value, which data
spells ``UNKNOWN``, ``null`` or ``None``; a "failure" that output spells ``error``; a verb's
irregular forms, which no stemmer joins: "thrown" for ``throw``, "run" for ``Ran``): what any
developer reads as the same thing, never a guess at what a query means. A function is defined by
``def``, an executable found in ``bin/``, a tarball spelled ``.tgz``, a minified build
``.min.js``. (A "count, number, total" group cost facts: "counted array" found totals lines;
"begin" for "start" found SQL's ``BEGIN;``; "length" for "characters" found a spec's every
"characters" before its "1--7 arabic digits". Other shortenings measured and left out:
"distribution" as ``dist``, "module" as ``mod``, "extension" as ``ext``, "pointer" as ``ptr``,
"template" as ``tmpl``; each found other lines first.) A file
named by its language ("the TypeScript definitions", "the JavaScript entry point") is spelled by its
extension (``index.d.ts``, ``index.mjs``); not "python" or "markdown", which a diff's or a tree's
every ``.py`` and ``.md`` path would then answer.

A country or a language named in one word is spelled in data by its ISO code (``Japan`` -> ``JP``,
``Croatian`` -> ``hr``, ``German`` -> ``de`` in ``de-AT``): those codes are its short forms too, but
for codes that are English words (``in`` for India, ``it``, ``is``, ``no``, ``us`` …), which would
match every sentence. (A query for "the Japan airport count" found nothing in a table keyed by
``JP``; country and locale codes were the commonest words that fresh sets' queries and outputs
spelled differently.)

``PHRASE_FORMS`` maps two neighbouring words of a question to the short forms code spells them as
(``command line`` -> ``cli``, ``pull request`` -> ``pr``, ``standard error`` -> ``stderr``).

``NO_ABBREVIATION`` is a pattern to put after a sentence's stop: ``i.e.``, ``e.g.`` and their
kind end no sentence.

``worded(text)`` says whether a stripped line reads as words of a sentence, not data: mostly
letters and spaces (``WORDED_SHARE``), four words at least.

``light_stem(word, keep=)`` cuts one common English suffix (``timeouts`` -> ``timeout``,
``failing`` -> ``fail``) when at least ``keep`` + 1 letters stay: the cheap matching of the
in-memory rankers (tool search, intent terms); the store uses tantivy's stemmer instead.
"""

from __future__ import annotations

FUNCTION_WORDS = frozenset(
    "a an and are as at be been by do does for from had has have in into is it its of on or "
    "that the their then there these this those to was were what when where which while who "
    "whose why how with".split()
)


_SHORT_FORMS = {
    "address": "addr",
    "administrator": "admin",
    "allocation": "alloc",
    "application": "app",
    "argument": "arg args argv",
    "asynchronous": "async",
    "attribute": "attr attrs",
    "authentication": "auth",
    "authorization": "auth authz",
    "average": "avg mean",
    "benchmark": "bench",
    "boolean": "bool",
    "buffer": "buf",
    "button": "btn",
    "calculate": "calc",
    "callback": "cb",
    "certificate": "cert certs",
    "changelog": "changes history news",
    "character": "char chars",
    "color": "colour",
    "colour": "color",
    "column": "col cols",
    "command": "cmd",
    "commonjs": "cjs",
    "compare": "cmp",
    "configuration": "config cfg conf",
    "connection": "conn conns",
    "constant": "const",
    "context": "ctx",
    "count": "n cnt",
    "database": "db",
    "delimiter": "delim sep separator",
    "dependency": "dep deps",
    "description": "desc",
    "destination": "dest dst",
    "dictionary": "dict",
    "directory": "dir dirs folder",
    "documentation": "doc docs",
    "environment": "env",
    "error": "err errorf",
    "exception": "exc",
    "execute": "exec",
    "executable": "exe bin",
    "expression": "expr",
    "folder": "dir directory",
    "format": "fmt",
    "function": "func fn def",
    "identifier": "id ident",
    "image": "img",
    "implementation": "impl",
    "index": "idx",
    "information": "info",
    "initialization": "init",
    "initialize": "init",
    "integer": "int",
    "internationalization": "i18n",
    "iterator": "iter",
    "javascript": "js mjs cjs",
    "kubernetes": "k8s",
    "language": "lang",
    "length": "len",
    "library": "lib libs",
    "localization": "l10n",
    "manager": "mgr",
    "maximum": "max",
    "memory": "mem",
    "message": "msg",
    "milliseconds": "ms",
    "minified": "min",
    "minimum": "min",
    "node": "nodejs",
    "number": "num",
    "object": "obj",
    "option": "opt opts",
    "original": "orig",
    "package": "pkg",
    "parameter": "param params",
    "password": "passwd pwd",
    "performance": "perf",
    "permission": "perm perms",
    "position": "pos",
    "previous": "prev",
    "process": "proc",
    "property": "prop props",
    "random": "rand",
    "receive": "recv",
    "reference": "ref",
    "repository": "repo",
    "request": "req",
    "requirement": "req reqs requires",
    "response": "resp",
    "rust": "rs",
    "seconds": "sec secs",
    "separator": "sep delim delimiter",
    "sequence": "seq",
    "signature": "sig",
    "source": "src",
    "specification": "spec",
    "standard": "std",
    "statistics": "stats",
    "string": "str",
    "synchronous": "sync",
    "tarball": "tgz tar",
    "temperature": "temp",
    "temporary": "tmp temp",
    "terminal": "tty",
    "timezone": "tz",
    "token": "tok",
    "transaction": "txn tx",
    "typescript": "ts",
    "utility": "util utils",
    "value": "val",
    "variable": "var vars",
    "window": "win",
    "yaml": "yml",
}
# Two words of a question that code and tools spell as one short form ("command line": ``cli``).
_PHRASE_FORMS = {
    "command line": "cli cmdline",
    "pull request": "pr",
    "merge request": "mr",
    "user interface": "ui",
    "operating system": "os",
    "file system": "fs",
    "file descriptor": "fd",
    "process id": "pid",
    "user id": "uid",
    "group id": "gid",
    "virtual machine": "vm",
    "regular expression": "regex regexp",
    "standard output": "stdout",
    "standard error": "stderr",
    "standard input": "stdin",
    "garbage collection": "gc",
    "garbage collector": "gc",
    "time zone": "tz",
    "certificate authority": "ca",
    "web socket": "ws",
    "continuous integration": "ci",
}
PHRASE_FORMS: dict[str, tuple[str, ...]] = {
    phrase: tuple(forms.split()) for phrase, forms in _PHRASE_FORMS.items()
}
# Words of the trade that name the same thing in a question and in a tool's output (each group's
# words stand for one another): a question asks for the "limit", the output prints "max".
_SAME_THING = (
    "limit max maximum",
    "remove delete drop",
    "size bytes length",
    "version release",
    "start launch startup",
    "stop terminate shutdown kill",
    "default initial",
    "duration elapsed took",
    "memory ram rss",
    "option flag setting",
    "warning warn",
    "missing unknown null none",
    "required mandatory",
    "latest newest",
    "rename move",
    "license copyright",
    "failure error",
    # a verb's irregular forms, which no stemmer joins
    "build built",
    "run ran",
    "throw thrown threw",
    "write written wrote",
    "send sent",
    "break broken broke",
    "hide hidden",
    "choose chosen chose",
    "take taken",
    "give given gave",
    "begin begun began",
    "freeze frozen froze",
    "stick stuck",
    "draw drawn drew",
    "fall fallen fell",
    "spend spent",
    "keep kept",
    "lose lost",
)


# A country named in one word, and its ISO 3166-1 code, which data spells it by (``JP``, ``hr``);
_PLACES = (
    "afghanistan=af albania=al algeria=dz andorra=ad angola=ao anguilla=ai antarctica=aq aruba=aw "
    "australia=au azerbaijan=az bahamas=bs bahrain=bh bangladesh=bd barbados=bb belize=bz benin=bj "
    "bermuda=bm bhutan=bt bolivia=bo bonaire=bq botswana=bw brazil=br bulgaria=bg burundi=bi cambodia=kh "
    "cameroon=cm chad=td chile=cl china=cn cocos=cc comoros=km congo=cg croatia=hr cuba=cu curaçao=cw "
    "cyprus=cy czechia=cz denmark=dk djibouti=dj dominica=dm ecuador=ec egypt=eg eritrea=er estonia=ee "
    "eswatini=sz ethiopia=et fiji=fj finland=fi france=fr gabon=ga gambia=gm georgia=ge germany=de "
    "ghana=gh gibraltar=gi greece=gr greenland=gl grenada=gd guadeloupe=gp guam=gu guatemala=gt "
    "guernsey=gg guinea-bissau=gw guinea=gn guyana=gy haiti=ht honduras=hn hungary=hu iran=ir iraq=iq "
    "ireland=ie israel=il jamaica=jm japan=jp jersey=je jordan=jo kazakhstan=kz kenya=ke kiribati=ki "
    "kuwait=kw kyrgyzstan=kg latvia=lv lebanon=lb lesotho=ls liberia=lr libya=ly liechtenstein=li "
    "lithuania=lt luxembourg=lu madagascar=mg malawi=mw maldives=mv mali=ml malta=mt martinique=mq "
    "mauritania=mr mauritius=mu mayotte=yt mexico=mx micronesia=fm moldova=md monaco=mc mongolia=mn "
    "montserrat=ms mozambique=mz myanmar=mm namibia=na nauru=nr nepal=np netherlands=nl nicaragua=ni "
    "nigeria=ng niue=nu oman=om pakistan=pk palau=pw palestine=ps paraguay=py peru=pe philippines=ph "
    "pitcairn=pn poland=pl portugal=pt qatar=qa romania=ro rwanda=rw réunion=re samoa=ws senegal=sn "
    "serbia=rs seychelles=sc singapore=sg slovakia=sk slovenia=si spain=es sudan=sd suriname=sr "
    "switzerland=ch syria=sy taiwan=tw tajikistan=tj tanzania=tz thailand=th timor-leste=tl togo=tg "
    "tokelau=tk tunisia=tn turkmenistan=tm tuvalu=tv türkiye=tr uganda=ug ukraine=ua uruguay=uy "
    "uzbekistan=uz vanuatu=vu venezuela=ve vietnam=vn yemen=ye zambia=zm zimbabwe=zw"
)
# A language named in one word, and its ISO 639-1 code (``bg``, ``de-AT``'s ``de``). Both from
# Debian's iso-codes; a code that is an English word (in, it, is, at, no, to, my, us …) is left out.
_LANGUAGES = (
    "abkhazian=ab afar=aa afrikaans=af akan=ak albanian=sq armenian=hy avaric=av avestan=ae aymara=ay "
    "azerbaijani=az bambara=bm bashkir=ba basque=eu bengali=bn bislama=bi bokmål=nb bosnian=bs breton=br "
    "bulgarian=bg chamorro=ch chechen=ce chichewa=ny chinese=zh chuvash=cv cornish=kw cree=cr croatian=hr "
    "czech=cs danish=da divehi=dv dutch=nl dzongkha=dz english=en esperanto=eo estonian=et ewe=ee "
    "faroese=fo fijian=fj finnish=fi french=fr fulah=ff gaelic=gd galician=gl ganda=lg georgian=ka "
    "german=de greek=el guarani=gn gujarati=gu haitian=ht hausa=ha herero=hz hungarian=hu ido=io igbo=ig "
    "interlingue=ie inuktitut=iu inupiaq=ik irish=ga japanese=ja javanese=jv kalaallisut=kl kannada=kn "
    "kanuri=kr kashmiri=ks kazakh=kk kikuyu=ki kinyarwanda=rw kirghiz=ky komi=kv kongo=kg korean=ko "
    "kuanyama=kj kurdish=ku lao=lo latvian=lv limburgan=li lingala=ln lithuanian=lt luba-katanga=lu "
    "luxembourgish=lb macedonian=mk malagasy=mg malay=ms malayalam=ml maltese=mt manx=gv maori=mi "
    "marathi=mr marshallese=mh mongolian=mn nauru=na navajo=nv ndebele=nd ndonga=ng ojibwa=oj oromo=om "
    "ossetian=os pali=pi persian=fa polish=pl portuguese=pt pushto=ps quechua=qu romanian=ro romansh=rm "
    "rundi=rn russian=ru samoan=sm sango=sg sanskrit=sa sardinian=sc serbian=sr shona=sn sindhi=sd "
    "sinhala=si slovak=sk slovenian=sl sotho=st spanish=es sundanese=su swahili=sw swati=ss swedish=sv "
    "tagalog=tl tahitian=ty tajik=tg tamil=ta tatar=tt telugu=te thai=th tibetan=bo tigrinya=ti tsonga=ts "
    "tswana=tn turkish=tr turkmen=tk twi=tw uighur=ug ukrainian=uk urdu=ur uzbek=uz venda=ve "
    "vietnamese=vi volapük=vo walloon=wa welsh=cy wolof=wo xhosa=xh yiddish=yi yoruba=yo zhuang=za "
    "zulu=zu"
)


def _forms() -> dict[str, tuple[str, ...]]:
    """Each word's short forms, the other words of its groups in ``_SAME_THING``, and the ISO code
    of a country or language (``_PLACES``, ``_LANGUAGES``)."""
    forms: dict[str, list[str]] = {full: spelled.split() for full, spelled in _SHORT_FORMS.items()}
    for full, spelled in _SHORT_FORMS.items():  # a query written short ("tz plugin") finds the full
        for short in spelled.split():
            forms.setdefault(short, []).append(full)
    for pair in (*_PLACES.split(), *_LANGUAGES.split()):
        name, code = pair.split("=")
        forms.setdefault(name, []).append(code)
    for group in _SAME_THING:
        for word in group.split():
            forms.setdefault(word, []).extend(other for other in group.split() if other != word)
    return {full: tuple(dict.fromkeys(found)) for full, found in forms.items()}


ABBREVIATIONS: dict[str, tuple[str, ...]] = _forms()


def is_function_word(word: str) -> bool:
    """Whether ``word`` (any case) is an English function word."""
    return word.lower() in FUNCTION_WORDS


# Put after a sentence's stop (``[.!?]``): no stop at an abbreviation that goes on with the
# sentence ("special float values (i.e. NaN, inf)", "a mode (e.g. fast)", "Smith et al. found").
NO_ABBREVIATION = r"(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\bcf\.)(?<!\bvs\.)(?<!\bviz\.)(?<!\bal\.)"

WORDED_SHARE = 0.8


def worded(text: str) -> bool:
    """Whether ``text`` (stripped) is words of a sentence: ``WORDED_SHARE`` of its characters
    letters and spaces, and three spaces at least."""
    plain = sum(char.isalpha() or char == " " for char in text)
    return plain >= WORDED_SHARE * len(text) and text.count(" ") >= 3


SUFFIXES = ("ing", "ies", "es", "ed", "s", "ly")


def light_stem(word: str, *, keep: int = 3) -> str:
    """``word`` (lowercase) without its first matching suffix, if more than ``keep`` letters stay."""
    for suffix in SUFFIXES:
        if len(word) > len(suffix) + keep and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
