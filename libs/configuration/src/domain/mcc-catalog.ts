import { z } from 'zod';
/**
 * Merchant category codes (ISO 18245, as the card networks assign them) that a merchant may be
 * onboarded under: `GET /config/mcc-catalog` and the `merchant_category_code` check. Left out:
 * airline, hotel and car-rental brand codes (3000-3999, a merchant uses the generic 4511, 7011,
 * 7512), network-internal codes (9700-9950), financial-institution cash codes (6010, 6011) and
 * codes the networks retired for first presentments (4723, 4815, 5961, 6381, 6399, 8044, 9405).
 *
 * Risk, the platform's underwriting tier for the category (rule as data, below):
 * - red: categories the networks treat as high-brand-risk or require the acquirer to register
 *   and monitor (Visa high-brand-risk programme, Mastercard specialty merchant registration):
 *   gambling and lotteries, outbound and inbound telemarketing, dating and escort, money
 *   transfer, quasi-cash and cryptocurrency, stored-value loads, pharmaceuticals and
 *   nutraceuticals sold as drugs, tobacco and vaping, digital games (resold in-game currency).
 * - yellow: elevated exposure without network registration: goods or services delivered long
 *   after payment (travel, lodging, car rental, cruises, timeshares, tickets), subscriptions and
 *   direct marketing, high-value resaleable goods (jewellery, precious metals, pawn), other
 *   digital goods (instant delivery invites card testing), age-restricted alcohol, pharmacies,
 *   telecom and tech support, brokerage, credit reporting, debt counselling and collection,
 *   massage parlours.
 * - green: every other category.
 *
 * BAA (HIPAA business associate agreement) is required for healthcare providers, who are
 * covered entities and may put protected health information into payments (custom fields,
 * invoices, descriptors): doctors, dentists, osteopaths, chiropractors, eye care, podiatrists,
 * nursing facilities, hospitals, labs, other practitioners, ambulances, pharmacies, hearing aids
 * and orthopaedic or prosthetic devices. Suppliers selling to providers (5047) are not providers.
 */
export const MccCatalogItemResource = z
  .strictObject({
    code: z.string().regex(/^[0-9]{4}$/),
    label: z.string(),
    risk: z.enum(['green', 'yellow', 'red']),
    baa_requirement: z.enum(['required', 'not_required']),
  })
  .meta({ id: 'MccCatalogItem' });

export type MccCatalogItem = z.infer<typeof MccCatalogItemResource>;
export type MccRisk = MccCatalogItem['risk'];
export type BaaRequirement = MccCatalogItem['baa_requirement'];

export const RED_RISK_MCCS: readonly string[] = [
  '4829', // money transfer
  '5122', // drugs and druggists' sundries (nutraceuticals)
  '5816', // digital goods: games
  '5966', // outbound telemarketing
  '5967', // inbound teleservices (adult, pay-per-call)
  '5993', // tobacco and vaping
  '6051', // quasi-cash: foreign currency, cryptocurrency, money orders
  '6540', // stored-value card purchase and load
  '7273', // dating and escort services
  '7800', // government-owned lotteries
  '7801', // online gambling
  '7802', // horse and dog racing
  '7995', // betting, casinos, lottery tickets
];

export const YELLOW_RISK_MCCS: readonly string[] = [
  '4411', // cruise lines
  '4511', // airlines
  '4722', // travel agencies and tour operators
  '4814', // telecommunication services
  '4816', // computer network and information services
  '5094', // precious stones and metals
  '5815', // digital goods: media
  '5817', // digital goods: applications
  '5818', // digital goods: large merchants
  '5912', // pharmacies
  '5921', // package stores: beer, wine, liquor
  '5933', // pawn shops
  '5944', // jewellery stores
  '5960', // direct marketing: insurance
  '5962', // direct marketing: travel
  '5963', // door-to-door sales
  '5964', // direct marketing: catalog
  '5965', // direct marketing: catalog and retail
  '5968', // direct marketing: continuity and subscription
  '5969', // direct marketing: other
  '6211', // securities brokers and dealers
  '7011', // lodging
  '7012', // timeshares
  '7277', // debt, marriage and personal counselling
  '7297', // massage parlours
  '7321', // consumer credit reporting
  '7322', // debt collection
  '7512', // car rental
  '7922', // ticket agencies and theatrical producers
];

export const BAA_REQUIRED_MCCS: readonly string[] = [
  '4119', // ambulance services
  '5912', // pharmacies
  '5975', // hearing aids
  '5976', // orthopaedic goods and prosthetic devices
  '8011', // doctors and physicians
  '8021', // dentists and orthodontists
  '8031', // osteopaths
  '8041', // chiropractors
  '8042', // optometrists and ophthalmologists
  '8043', // opticians and eyeglasses
  '8049', // podiatrists and chiropodists
  '8050', // nursing and personal care facilities
  '8062', // hospitals
  '8071', // medical and dental laboratories
  '8099', // medical services and health practitioners
];

/** [code, label], sorted by code. */
const MCC_LABELS: readonly (readonly [string, string])[] = [
  ['0742', 'Veterinary Services'],
  ['0763', 'Agricultural Cooperatives'],
  ['0780', 'Landscaping and Horticultural Services'],
  ['1520', 'General Contractors – Residential and Commercial'],
  ['1711', 'Heating, Plumbing and Air Conditioning Contractors'],
  ['1731', 'Electrical Contractors'],
  ['1740', 'Masonry, Stonework, Tile Setting, Plastering and Insulation Contractors'],
  ['1750', 'Carpentry Contractors'],
  ['1761', 'Roofing, Siding and Sheet Metal Work Contractors'],
  ['1771', 'Concrete Work Contractors'],
  ['1799', 'Special Trade Contractors (Not Elsewhere Classified)'],
  ['2741', 'Miscellaneous Publishing and Printing'],
  ['2791', 'Typesetting, Plate Making and Related Services'],
  ['2842', 'Specialty Cleaning, Polishing and Sanitation Preparations'],
  ['4011', 'Railroads'],
  ['4111', 'Local and Suburban Commuter Passenger Transportation, Including Ferries'],
  ['4112', 'Passenger Railways'],
  ['4119', 'Ambulance Services'],
  ['4121', 'Taxicabs and Limousines'],
  ['4131', 'Bus Lines'],
  ['4214', 'Motor Freight Carriers and Trucking – Local and Long Distance, Moving and Storage Companies'],
  ['4215', 'Courier Services – Air and Ground, and Freight Forwarders'],
  ['4225', 'Public Warehousing and Storage'],
  ['4411', 'Steamship and Cruise Lines'],
  ['4457', 'Boat Rentals and Leasing'],
  ['4468', 'Marinas, Marine Service and Supplies'],
  ['4511', 'Airlines and Air Carriers'],
  ['4582', 'Airports, Flying Fields and Airport Terminals'],
  ['4722', 'Travel Agencies and Tour Operators'],
  ['4784', 'Tolls and Bridge Fees'],
  ['4789', 'Transportation Services (Not Elsewhere Classified)'],
  ['4812', 'Telecommunication Equipment and Telephone Sales'],
  ['4814', 'Telecommunication Services'],
  ['4816', 'Computer Network and Information Services'],
  ['4821', 'Telegraph Services'],
  ['4829', 'Wire Transfers and Money Orders'],
  ['4899', 'Cable, Satellite and Other Pay Television and Radio Services'],
  ['4900', 'Utilities – Electric, Gas, Water and Sanitary'],
  ['5013', 'Motor Vehicle Supplies and New Parts'],
  ['5021', 'Office and Commercial Furniture'],
  ['5039', 'Construction Materials (Not Elsewhere Classified)'],
  ['5044', 'Photographic, Photocopy, Microfilm Equipment and Supplies'],
  ['5045', 'Computers, Computer Peripheral Equipment and Software'],
  ['5046', 'Commercial Equipment (Not Elsewhere Classified)'],
  ['5047', 'Medical, Dental, Ophthalmic and Hospital Equipment and Supplies'],
  ['5051', 'Metal Service Centers and Offices'],
  ['5065', 'Electrical Parts and Equipment'],
  ['5072', 'Hardware, Equipment and Supplies'],
  ['5074', 'Plumbing and Heating Equipment and Supplies'],
  ['5085', 'Industrial Supplies (Not Elsewhere Classified)'],
  ['5094', 'Precious Stones and Metals, Watches and Jewelry'],
  ['5099', 'Durable Goods (Not Elsewhere Classified)'],
  ['5111', 'Stationery, Office Supplies, Printing and Writing Paper'],
  ['5122', "Drugs, Drug Proprietaries and Druggists' Sundries"],
  ['5131', 'Piece Goods, Notions and Other Dry Goods'],
  ['5137', "Men's, Women's and Children's Uniforms and Commercial Clothing"],
  ['5139', 'Commercial Footwear'],
  ['5169', 'Chemicals and Allied Products (Not Elsewhere Classified)'],
  ['5172', 'Petroleum and Petroleum Products'],
  ['5192', 'Books, Periodicals and Newspapers'],
  ['5193', "Florists' Supplies, Nursery Stock and Flowers"],
  ['5198', 'Paints, Varnishes and Supplies'],
  ['5199', 'Nondurable Goods (Not Elsewhere Classified)'],
  ['5200', 'Home Supply Warehouse Stores'],
  ['5211', 'Lumber and Building Materials Stores'],
  ['5231', 'Glass, Paint and Wallpaper Stores'],
  ['5251', 'Hardware Stores'],
  ['5261', 'Lawn and Garden Supply Stores, Including Nurseries'],
  ['5262', 'Marketplaces'],
  ['5271', 'Mobile Home Dealers'],
  ['5300', 'Wholesale Clubs'],
  ['5309', 'Duty Free Stores'],
  ['5310', 'Discount Stores'],
  ['5311', 'Department Stores'],
  ['5331', 'Variety Stores'],
  ['5399', 'Miscellaneous General Merchandise'],
  ['5411', 'Grocery Stores and Supermarkets'],
  ['5422', 'Freezer and Locker Meat Provisioners'],
  ['5441', 'Candy, Nut and Confectionery Stores'],
  ['5451', 'Dairy Products Stores'],
  ['5462', 'Bakeries'],
  ['5499', 'Miscellaneous Food Stores – Convenience Stores and Specialty Markets'],
  ['5511', 'Car and Truck Dealers (New and Used) – Sales, Service, Repairs, Parts and Leasing'],
  ['5521', 'Car and Truck Dealers (Used Only) – Sales, Service, Repairs, Parts and Leasing'],
  ['5531', 'Auto and Home Supply Stores'],
  ['5532', 'Automotive Tire Stores'],
  ['5533', 'Automotive Parts and Accessories Stores'],
  ['5541', 'Service Stations (With or Without Ancillary Services)'],
  ['5542', 'Automated Fuel Dispensers'],
  ['5551', 'Boat Dealers'],
  ['5552', 'Electric Vehicle Charging'],
  ['5561', 'Camper, Recreational and Utility Trailer Dealers'],
  ['5571', 'Motorcycle Shops and Dealers'],
  ['5592', 'Motor Home Dealers'],
  ['5598', 'Snowmobile Dealers'],
  ['5599', 'Miscellaneous Automotive, Aircraft and Farm Equipment Dealers (Not Elsewhere Classified)'],
  ['5611', "Men's and Boys' Clothing and Accessory Stores"],
  ['5621', "Women's Ready-to-Wear Stores"],
  ['5631', "Women's Accessory and Specialty Shops"],
  ['5641', "Children's and Infants' Wear Stores"],
  ['5651', 'Family Clothing Stores'],
  ['5655', 'Sports and Riding Apparel Stores'],
  ['5661', 'Shoe Stores'],
  ['5681', 'Furriers and Fur Shops'],
  ['5691', "Men's and Women's Clothing Stores"],
  ['5697', 'Tailors, Seamstresses, Mending and Alterations'],
  ['5698', 'Wig and Toupee Stores'],
  ['5699', 'Miscellaneous Apparel and Accessory Shops'],
  ['5712', 'Furniture, Home Furnishings and Equipment Stores, Except Appliances'],
  ['5713', 'Floor Covering Stores'],
  ['5714', 'Drapery, Window Covering and Upholstery Stores'],
  ['5718', 'Fireplaces, Fireplace Screens and Accessories Stores'],
  ['5719', 'Miscellaneous Home Furnishing Specialty Stores'],
  ['5722', 'Household Appliance Stores'],
  ['5732', 'Electronics Stores'],
  ['5733', 'Music Stores – Musical Instruments, Pianos and Sheet Music'],
  ['5734', 'Computer Software Stores'],
  ['5735', 'Record Stores'],
  ['5811', 'Caterers'],
  ['5812', 'Eating Places and Restaurants'],
  [
    '5813',
    'Drinking Places (Alcoholic Beverages) – Bars, Taverns, Nightclubs, Cocktail Lounges and Discotheques',
  ],
  ['5814', 'Fast Food Restaurants'],
  ['5815', 'Digital Goods – Media: Books, Movies, Music'],
  ['5816', 'Digital Goods – Games'],
  ['5817', 'Digital Goods – Applications (Excludes Games)'],
  ['5818', 'Digital Goods – Large Digital Goods Merchant'],
  ['5832', 'Antique Shops – Sales, Repairs and Restoration Services'],
  ['5912', 'Drug Stores and Pharmacies'],
  ['5921', 'Package Stores – Beer, Wine and Liquor'],
  ['5931', 'Used Merchandise and Secondhand Stores'],
  ['5932', 'Antique Shops'],
  ['5933', 'Pawn Shops'],
  ['5935', 'Wrecking and Salvage Yards'],
  ['5937', 'Antique Reproductions'],
  ['5940', 'Bicycle Shops – Sales and Service'],
  ['5941', 'Sporting Goods Stores'],
  ['5942', 'Book Stores'],
  ['5943', 'Stationery, Office and School Supply Stores'],
  ['5944', 'Jewelry, Watch, Clock and Silverware Stores'],
  ['5945', 'Hobby, Toy and Game Shops'],
  ['5946', 'Camera and Photographic Supply Stores'],
  ['5947', 'Gift, Card, Novelty and Souvenir Shops'],
  ['5948', 'Luggage and Leather Goods Stores'],
  ['5949', 'Sewing, Needlework, Fabric and Piece Goods Stores'],
  ['5950', 'Glassware and Crystal Stores'],
  ['5960', 'Direct Marketing – Insurance Services'],
  ['5962', 'Direct Marketing – Travel-Related Arrangement Services'],
  ['5963', 'Door-to-Door Sales'],
  ['5964', 'Direct Marketing – Catalog Merchants'],
  ['5965', 'Direct Marketing – Combination Catalog and Retail Merchants'],
  ['5966', 'Direct Marketing – Outbound Telemarketing Merchants'],
  ['5967', 'Direct Marketing – Inbound Teleservices Merchants'],
  ['5968', 'Direct Marketing – Continuity and Subscription Merchants'],
  ['5969', 'Direct Marketing – Other Direct Marketers (Not Elsewhere Classified)'],
  ['5970', "Artist's Supply and Craft Shops"],
  ['5971', 'Art Dealers and Galleries'],
  ['5972', 'Stamp and Coin Stores'],
  ['5973', 'Religious Goods Stores'],
  ['5975', 'Hearing Aids – Sales, Service and Supplies'],
  ['5976', 'Orthopedic Goods and Prosthetic Devices'],
  ['5977', 'Cosmetic Stores'],
  ['5978', 'Typewriter Stores – Sales, Service and Rentals'],
  ['5983', 'Fuel Dealers – Fuel Oil, Wood, Coal and Liquefied Petroleum'],
  ['5992', 'Florists'],
  ['5993', 'Cigar Stores and Stands'],
  ['5994', 'News Dealers and Newsstands'],
  ['5995', 'Pet Shops, Pet Food and Supplies'],
  ['5996', 'Swimming Pools – Sales, Supplies and Services'],
  ['5997', 'Electric Razor Stores – Sales and Service'],
  ['5998', 'Tent and Awning Shops'],
  ['5999', 'Miscellaneous and Specialty Retail Stores'],
  ['6012', 'Financial Institutions – Merchandise, Services and Debt Repayment'],
  [
    '6051',
    'Non-Financial Institutions – Foreign Currency, Cryptocurrency, Money Orders and Travelers Cheques',
  ],
  ['6211', 'Securities – Brokers and Dealers'],
  ['6300', 'Insurance Sales, Underwriting and Premiums'],
  ['6513', 'Real Estate Agents and Managers – Rentals'],
  ['6540', 'Non-Financial Institutions – Stored Value Card Purchase and Load'],
  ['7011', 'Lodging – Hotels, Motels and Resorts'],
  ['7012', 'Timeshares'],
  ['7032', 'Sporting and Recreational Camps'],
  ['7033', 'Trailer Parks and Campgrounds'],
  ['7210', 'Laundry, Cleaning and Garment Services'],
  ['7211', 'Laundries – Family and Commercial'],
  ['7216', 'Dry Cleaners'],
  ['7217', 'Carpet and Upholstery Cleaning'],
  ['7221', 'Photographic Studios'],
  ['7230', 'Beauty and Barber Shops'],
  ['7251', 'Shoe Repair Shops, Shoe Shine Parlors and Hat Cleaning Shops'],
  ['7261', 'Funeral Services and Crematories'],
  ['7273', 'Dating and Escort Services'],
  ['7276', 'Tax Preparation Services'],
  ['7277', 'Counseling Services – Debt, Marriage and Personal'],
  ['7278', 'Buying and Shopping Services and Clubs'],
  ['7296', 'Clothing Rental – Costumes, Uniforms and Formal Wear'],
  ['7297', 'Massage Parlors'],
  ['7298', 'Health and Beauty Spas'],
  ['7299', 'Miscellaneous Personal Services (Not Elsewhere Classified)'],
  ['7311', 'Advertising Services'],
  ['7321', 'Consumer Credit Reporting Agencies'],
  ['7322', 'Debt Collection Agencies'],
  ['7332', 'Blueprinting and Photocopying Services'],
  ['7333', 'Commercial Photography, Art and Graphics'],
  ['7338', 'Quick Copy, Reproduction and Blueprinting Services'],
  ['7339', 'Stenographic and Secretarial Support Services'],
  ['7342', 'Exterminating and Disinfecting Services'],
  ['7349', 'Cleaning, Maintenance and Janitorial Services'],
  ['7361', 'Employment Agencies and Temporary Help Services'],
  ['7372', 'Computer Programming, Data Processing and Integrated Systems Design Services'],
  ['7375', 'Information Retrieval Services'],
  ['7379', 'Computer Maintenance, Repair and Services (Not Elsewhere Classified)'],
  ['7392', 'Management, Consulting and Public Relations Services'],
  ['7393', 'Detective Agencies, Protective Agencies and Security Services, Including Armored Cars'],
  ['7394', 'Equipment, Tool, Furniture and Appliance Rental and Leasing'],
  ['7395', 'Photofinishing Laboratories and Photo Developing'],
  ['7399', 'Business Services (Not Elsewhere Classified)'],
  ['7511', 'Truck Stops'],
  ['7512', 'Automobile Rental Agencies'],
  ['7513', 'Truck and Utility Trailer Rentals'],
  ['7519', 'Motor Home and Recreational Vehicle Rentals'],
  ['7523', 'Parking Lots, Parking Meters and Garages'],
  ['7531', 'Automotive Body Repair Shops'],
  ['7534', 'Tire Retreading and Repair Shops'],
  ['7535', 'Automotive Paint Shops'],
  ['7538', 'Automotive Service Shops (Non-Dealer)'],
  ['7542', 'Car Washes'],
  ['7549', 'Towing Services'],
  ['7622', 'Electronics Repair Shops'],
  ['7623', 'Air Conditioning and Refrigeration Repair Shops'],
  ['7629', 'Electrical and Small Appliance Repair Shops'],
  ['7631', 'Watch, Clock and Jewelry Repair'],
  ['7641', 'Furniture Repair, Reupholstery and Refinishing'],
  ['7692', 'Welding Repair'],
  ['7699', 'Miscellaneous Repair Shops and Related Services'],
  ['7800', 'Government-Owned Lotteries'],
  ['7801', 'Government-Licensed Online Casinos (Online Gambling)'],
  ['7802', 'Government-Licensed Horse and Dog Racing'],
  ['7829', 'Motion Picture and Video Tape Production and Distribution'],
  ['7832', 'Motion Picture Theaters'],
  ['7841', 'Video Tape Rental Stores'],
  ['7911', 'Dance Halls, Studios and Schools'],
  ['7922', 'Theatrical Producers (Except Motion Pictures) and Ticket Agencies'],
  ['7929', 'Bands, Orchestras and Miscellaneous Entertainers (Not Elsewhere Classified)'],
  ['7932', 'Billiard and Pool Establishments'],
  ['7933', 'Bowling Alleys'],
  ['7941', 'Commercial Sports, Professional Sports Clubs, Athletic Fields and Sports Promoters'],
  ['7991', 'Tourist Attractions and Exhibits'],
  ['7992', 'Public Golf Courses'],
  ['7993', 'Video Amusement Game Supplies'],
  ['7994', 'Video Game Arcades and Establishments'],
  [
    '7995',
    'Betting, Including Lottery Tickets, Casino Gaming Chips, Off-Track Betting and Wagers at Race Tracks',
  ],
  ['7996', 'Amusement Parks, Circuses, Carnivals and Fortune Tellers'],
  ['7997', 'Membership Clubs (Sports, Recreation, Athletic), Country Clubs and Private Golf Courses'],
  ['7998', 'Aquariums, Seaquariums and Dolphinariums'],
  ['7999', 'Recreation Services (Not Elsewhere Classified)'],
  ['8011', 'Doctors and Physicians (Not Elsewhere Classified)'],
  ['8021', 'Dentists and Orthodontists'],
  ['8031', 'Osteopaths'],
  ['8041', 'Chiropractors'],
  ['8042', 'Optometrists and Ophthalmologists'],
  ['8043', 'Opticians, Optical Goods and Eyeglasses'],
  ['8049', 'Podiatrists and Chiropodists'],
  ['8050', 'Nursing and Personal Care Facilities'],
  ['8062', 'Hospitals'],
  ['8071', 'Medical and Dental Laboratories'],
  ['8099', 'Medical Services and Health Practitioners (Not Elsewhere Classified)'],
  ['8111', 'Legal Services and Attorneys'],
  ['8211', 'Elementary and Secondary Schools'],
  ['8220', 'Colleges, Universities, Professional Schools and Junior Colleges'],
  ['8241', 'Correspondence Schools'],
  ['8244', 'Business and Secretarial Schools'],
  ['8249', 'Trade and Vocational Schools'],
  ['8299', 'Schools and Educational Services (Not Elsewhere Classified)'],
  ['8351', 'Child Care Services'],
  ['8398', 'Charitable and Social Service Organizations'],
  ['8641', 'Civic, Social and Fraternal Associations'],
  ['8651', 'Political Organizations'],
  ['8661', 'Religious Organizations'],
  ['8675', 'Automobile Associations'],
  ['8699', 'Membership Organizations (Not Elsewhere Classified)'],
  ['8734', 'Testing Laboratories (Non-Medical)'],
  ['8911', 'Architectural, Engineering and Surveying Services'],
  ['8931', 'Accounting, Auditing and Bookkeeping Services'],
  ['8999', 'Professional Services (Not Elsewhere Classified)'],
  ['9211', 'Court Costs, Including Alimony and Child Support'],
  ['9222', 'Fines'],
  ['9223', 'Bail and Bond Payments'],
  ['9311', 'Tax Payments'],
  ['9399', 'Government Services (Not Elsewhere Classified)'],
  ['9402', 'Postal Services – Government Only'],
];

const RED = new Set(RED_RISK_MCCS);
const YELLOW = new Set(YELLOW_RISK_MCCS);
const BAA = new Set(BAA_REQUIRED_MCCS);

export function mccRisk(code: string): MccRisk {
  if (RED.has(code)) return 'red';
  if (YELLOW.has(code)) return 'yellow';
  return 'green';
}

export const MCC_CATALOG: readonly MccCatalogItem[] = MCC_LABELS.map(([code, label]) => ({
  code,
  label,
  risk: mccRisk(code),
  baa_requirement: BAA.has(code) ? 'required' : 'not_required',
}));

const BY_CODE: ReadonlyMap<string, MccCatalogItem> = new Map(MCC_CATALOG.map((item) => [item.code, item]));

export function findMcc(code: string): MccCatalogItem | undefined {
  return BY_CODE.get(code);
}
