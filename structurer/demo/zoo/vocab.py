"""What zoo shops sell: one pool of words per domain, cut down per shop.

Input: a domain name and a seeded random generator. Output: a
:class:`~structurer.demo.catalog.Vocabulary` with 2-3 top categories of 2-4
sub-categories each (drawn from the domain's pool), plus the domain's subtitles
("(Hardcover)") and shop-name words. Sentences never hold ". " inside, so a
description splits into its sentences.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from structurer.demo.catalog import Vocabulary


@dataclass(frozen=True)
class Domain:
    tree: dict[str, dict[str, Sequence[str]]]
    adjectives: tuple[str, ...]
    brands: tuple[str, ...]
    materials: tuple[str, ...]
    subtitles: tuple[str, ...]
    names: tuple[str, ...]      # second word of the shop's name


_SENTENCES = (
    "The {name} is made for everyday use.",
    "Built from {material}, it is light and durable.",
    "{brand} designed this {noun} with care for every detail.",
    "A {adj} design that fits any home or office.",
    "Backed by a two-year warranty and free returns within 30 days.",
    "Customers love how easy the {noun} is to use and clean.",
    "Every {noun} from {brand} is tested before it leaves the workshop.",
)

DOMAINS: dict[str, Domain] = {
    "outdoor": Domain(
        {"Footwear": {"Trail Running": ("Trail Runner", "Fell Shoe"),
                      "Hiking Boots": ("Hiking Boot", "Mid Boot"),
                      "Sandals": ("Sport Sandal", "Camp Slide"),
                      "Approach Shoes": ("Approach Shoe", "Scramble Shoe")},
         "Camping": {"Tents": ("Dome Tent", "Tunnel Tent"), "Sleeping Bags": ("Down Bag", "Quilt"),
                     "Stoves": ("Gas Stove", "Canister Stove"),
                     "Backpacks": ("Daypack", "Trekking Pack")},
         "Clothing": {"Jackets": ("Rain Shell", "Insulated Jacket"),
                      "Base Layers": ("Merino Top", "Thermal Leggings"),
                      "Fleece": ("Fleece Hoodie", "Grid Fleece"),
                      "Trousers": ("Hiking Trousers", "Convertible Pants")}},
        ("Alpine", "Summit", "Ridge", "Storm", "Canyon", "Glacier", "Boreal"),
        ("Northpeak", "Ridgeline", "Kestrel", "Fjällräv", "Cairn", "Škarpa"),
        ("recycled nylon", "merino wool", "ripstop polyester", "suede"),
        ("(Men's)", "(Women's)", "(Unisex)"), ("Outdoor", "Trail Supply", "Basecamp")),
    "electronics": Domain(
        {"Computers": {"Laptops": ("Gaming Laptop", "Ultrabook"),
                       "Monitors": ("4K Monitor", "Curved Monitor"),
                       "Keyboards": ("Mechanical Keyboard", "Compact Keyboard"),
                       "Storage": ("Portable SSD", "NAS Drive")},
         "Audio": {"Headphones": ("Wireless Headphones", "Studio Headphones"),
                   "Speakers": ("Bluetooth Speaker", "Soundbar"),
                   "Microphones": ("USB Microphone", "Lavalier Mic")},
         "Phones": {"Smartphones": ("Smartphone", "Foldable Phone"),
                    "Cases": ("Phone Case", "Wallet Case"),
                    "Chargers": ("Fast Charger", "Wireless Charger")}},
        ("Turbo", "Nova", "Quantum", "Hyper", "Neon", "Pulse", "Titan"),
        ("Voltix", "Kairo", "Bitforge", "Lumen", "Zentro", "Ærovox"),
        ("anodized aluminium", "matte ABS", "tempered glass", "magnesium alloy"),
        ("(Refurbished)", "(2024 model)", "(Renewed)"), ("Electronics", "Digital", "Tech Store")),
    "books": Domain(
        {"Fiction": {"Crime": ("Thriller", "Detective Novel"), "Fantasy": ("Epic", "Saga"),
                     "Romance": ("Love Story", "Romance Novel"),
                     "Science Fiction": ("Space Opera", "Cyberpunk Novel")},
         "Non-fiction": {"History": ("History", "Chronicle"), "Travel": ("Travel Guide", "Atlas"),
                         "Cooking": ("Cookbook", "Baking Book"),
                         "Science": ("Popular Science", "Field Guide")},
         "Children": {"Picture Books": ("Picture Book", "Board Book"),
                      "Young Adult": ("Coming-of-age Novel", "Adventure Story")}},
        ("Silent", "Last", "Hidden", "Golden", "Broken", "Northern", "Secret"),
        ("Harbour Press", "Quill & Co", "Lantern Books", "Penrose", "Édition Lune", "Bookwright"),
        ("paper", "cloth", "recycled paper"),
        ("(Hardcover)", "(Paperback)", "(Audio CD)", "(Kindle Edition)"),
        ("Books", "Bookshop", "Reads")),
    "kitchen": Domain(
        {"Cookware": {"Pans": ("Fry Pan", "Sauté Pan"), "Pots": ("Stock Pot", "Dutch Oven"),
                      "Bakeware": ("Loaf Pan", "Baking Sheet"),
                      "Knives": ("Chef's Knife", "Paring Knife")},
         "Appliances": {"Coffee": ("Espresso Machine", "Coffee Grinder"),
                        "Blenders": ("Blender", "Hand Blender"),
                        "Kettles": ("Kettle", "Gooseneck Kettle")},
         "Tableware": {"Plates": ("Dinner Plate", "Side Plate"),
                       "Glasses": ("Tumbler", "Wine Glass"),
                       "Cutlery": ("Cutlery Set", "Steak Knife Set")}},
        ("Heritage", "Rustic", "Nordic", "Harvest", "Enamelled", "Classic", "Provence"),
        ("Muskoka Home", "Laurentian", "Cuisson", "Köstlich", "Bayfield", "Porcelana Sol"),
        ("cast iron", "stainless steel", "stoneware", "borosilicate glass"),
        ("(Set of 4)", "(2-pack)", "(Gift box)"), ("Kitchen", "Cookshop", "Home & Table")),
    "fashion": Domain(
        {"Women": {"Dresses": ("Wrap Dress", "Midi Dress"), "Tops": ("Blouse", "Knit Top"),
                   "Shoes": ("Ballet Flat", "Ankle Boot"), "Bags": ("Tote Bag", "Crossbody Bag")},
         "Men": {"Shirts": ("Oxford Shirt", "Linen Shirt"), "Trousers": ("Chinos", "Wool Trousers"),
                 "Jackets": ("Blazer", "Bomber Jacket")},
         "Accessories": {"Scarves": ("Silk Scarf", "Wool Scarf"), "Belts": ("Leather Belt",),
                         "Hats": ("Beanie", "Fedora")}},
        ("Classic", "Slim", "Relaxed", "Vintage", "Modern", "Tailored", "Soft"),
        ("Maison Clé", "Norrland", "Atelier 9", "Bellamy", "Żurawie", "Tessuto"),
        ("organic cotton", "linen", "cashmere", "leather", "silk"),
        ("(Slim fit)", "(Regular fit)", "(Petite)"), ("Fashion", "Boutique", "Clothing Co")),
    "hardware": Domain(
        {"Tools": {"Drills": ("Cordless Drill", "Hammer Drill"), "Saws": ("Jigsaw", "Circular Saw"),
                   "Hand Tools": ("Screwdriver Set", "Socket Set"),
                   "Measuring": ("Laser Level", "Tape Measure")},
         "Building": {"Cables": ("Power Cable", "Speaker Cable"),
                      "Pipes": ("Copper Pipe", "PVC Pipe"),
                      "Fixings": ("Wall Plug Set", "Screw Box")},
         "Garden": {"Hoses": ("Garden Hose", "Spiral Hose"),
                    "Mowers": ("Lawn Mower", "Robot Mower"),
                    "Lighting": ("Solar Light", "Floodlight")}},
        ("Pro", "Heavy-duty", "Compact", "Industrial", "Precision", "Rugged", "Smart"),
        ("Krafter", "Bauwerk", "Ironclad", "Stalwart", "Šroub", "Herramex"),
        ("hardened steel", "copper", "fibreglass", "aluminium"),
        ("(Bare tool)", "(Kit)", "(per metre)"), ("Hardware", "Tools", "Building Supply")),
    "toys": Domain(
        {"Games": {"Board Games": ("Board Game", "Strategy Game"), "Puzzles": ("Jigsaw Puzzle",
                                                                            "3D Puzzle"),
                   "Card Games": ("Card Game", "Trading Card Pack")},
         "Building": {"Bricks": ("Brick Set", "Starter Set"),
                      "Models": ("Model Kit", "Model Train"),
                      "Science Kits": ("Chemistry Set", "Robot Kit")},
         "Outdoor Play": {"Bikes": ("Balance Bike", "Kids Bike"), "Water": ("Water Blaster",
                                                                             "Pool Float"),
                          "Sports": ("Football", "Badminton Set")}},
        ("Happy", "Little", "Mega", "Super", "Wonder", "Rainbow", "Galaxy"),
        ("Playmore", "Tinkerly", "Kubus", "Funwerk", "Jouéclat", "Brickhaus"),
        ("wood", "recycled plastic", "cardboard", "plush"),
        ("(Ages 3+)", "(Ages 8+)", "(Family edition)"), ("Toys", "Toy Box", "Playroom")),
    "beauty": Domain(
        {"Skincare": {"Cleansers": ("Foam Cleanser", "Cleansing Oil"),
                      "Moisturisers": ("Day Cream", "Night Cream"),
                      "Serums": ("Vitamin C Serum", "Hyaluronic Serum"),
                      "Sun Care": ("Sun Cream", "After-sun Gel")},
         "Makeup": {"Lips": ("Lipstick", "Lip Gloss"), "Eyes": ("Mascara", "Eyeliner"),
                    "Face": ("Foundation", "Concealer")},
         "Hair": {"Shampoo": ("Shampoo", "Dry Shampoo"), "Styling": ("Hair Wax", "Curl Cream"),
                  "Tools": ("Hair Dryer", "Straightener")}},
        ("Radiant", "Pure", "Velvet", "Hydra", "Glow", "Botanic", "Silk"),
        ("Lumière", "Aveny", "Skinfolk", "Blossa", "Kosmetika", "Dermaé"),
        ("aloe vera", "shea butter", "argan oil", "green tea"),
        ("(50 ml)", "(100 ml)", "(Travel size)"), ("Beauty", "Cosmetics", "Apothecary")),
}

_PREFIXES = ("Nordwind", "Bluebird", "Copper", "Harbour", "Lindqvist", "Marigold", "Oakridge",
             "Pioneer", "Sunline", "Vega", "Westbrook", "Yellowstone", "Zephyr", "Brightwater")


def shop_vocabulary(domain: str, rng: random.Random) -> Vocabulary:
    """2-3 top categories with 2-4 sub-categories each, cut from the domain's pool."""
    pool = DOMAINS[domain]
    tops = rng.sample(list(pool.tree), k=rng.randint(2, min(3, len(pool.tree))))
    tree: dict[str, dict[str, Sequence[str]]] = {}
    for top in tops:
        subs = list(pool.tree[top])
        keep = rng.sample(subs, k=rng.randint(2, min(4, len(subs))))
        tree[top] = {sub: pool.tree[top][sub] for sub in subs if sub in keep}
    return Vocabulary(tree=tree, adjectives=pool.adjectives, brands=pool.brands,
                      materials=pool.materials, sentences=_SENTENCES)


def shop_title(domain: str, rng: random.Random) -> str:
    return f"{rng.choice(_PREFIXES)} {rng.choice(DOMAINS[domain].names)}"
